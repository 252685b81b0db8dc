"""A stand-in for Hermes's plugin host: loads a plugin folder the way Hermes does (its __init__.py, then
register(ctx) with ctx.register_hook(name, callback)) and fires the hooks a script names, with keyword
arguments, in order. Prints nothing itself: the test asserts the plugin prints nothing either.

usage: python3 standin_host.py PLUGIN_DIR SCRIPT.json   (SCRIPT: [[hook, {kwargs}], ...])
"""
import importlib.util
import json
import os
import sys


class Ctx:
    def __init__(self):
        self.hooks = {}

    def register_hook(self, name, callback):
        self.hooks.setdefault(name, []).append(callback)

    def fire(self, name, **kwargs):
        for cb in self.hooks.get(name, []):
            try:
                cb(**kwargs)
            except Exception as e:  # Hermes logs a failing hook and goes on
                sys.stderr.write("hook %s failed: %r\n" % (name, e))


def main():
    plugin_dir, script = sys.argv[1], sys.argv[2]
    spec = importlib.util.spec_from_file_location("agent_lens_plugin", os.path.join(plugin_dir, "__init__.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    ctx = Ctx()
    mod.register(ctx)
    with open(script, "r", encoding="utf-8") as f:
        for name, kwargs in json.load(f):
            ctx.fire(name, **kwargs)
    if hasattr(mod, "flush"):
        mod.flush()


main()
