# agent-lens-report plugin for Hermes: written by Agent Lens; remove it with "Agent Lens: Uninstall Agent Hooks".
"""Hands Hermes's plugin hooks to Agent Lens's hub, in the order Hermes produced them.

Runs inside Hermes: never prints, never raises into the host, bounded (3 s per request, a bounded queue,
one sender thread so reports keep their order), and does nothing outside a VS Code terminal (no
AGENT_LENS_HUB). The hub maps the hooks (src/hooks/mapping/hermes.ts); this only forwards them.
Unverified against a running Hermes: it cannot be installed where Agent Lens is tested.
"""
import json
import os
import queue
import threading
import time
import urllib.request

HOOKS = ("pre_tool_call", "post_tool_call", "pre_approval_request", "post_approval_response", "pre_llm_call", "post_llm_call", "on_session_end")
TEXT_KEPT = 8000
QUEUE_LIMIT = 256
REQUEST_S = 3.0
# No proxies, whatever http_proxy / HTTPS_PROXY / no_proxy say: the report carries the hub's token and must
# go straight to 127.0.0.1, never through a proxy that would see (and could keep) it.
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

_queue = queue.Queue(maxsize=QUEUE_LIMIT)
_started = False


def _ancestry(pid):
    out = []
    for _ in range(64):
        try:
            with open("/proc/%d/stat" % pid, "rb") as f:
                stat = f.read().decode("latin-1")
            ppid = int(stat[stat.rindex(")") + 2:].split(" ")[1])
        except Exception:
            break
        if ppid <= 1 or ppid in out:
            break
        out.append(ppid)
        pid = ppid
    return out


def _safe(v, depth=0):
    if isinstance(v, str):
        return v if len(v) <= TEXT_KEPT else "…" + v[-TEXT_KEPT:]
    if isinstance(v, (int, float, bool)) or v is None:
        return v
    if depth < 4 and isinstance(v, dict):
        return {str(k): _safe(x, depth + 1) for k, x in list(v.items())[:50]}
    if depth < 4 and isinstance(v, (list, tuple)):
        return [_safe(x, depth + 1) for x in list(v)[:50]]
    return _safe(str(v), depth)


def _discovery():
    try:
        with open(os.environ["AGENT_LENS_HUB"], "r", encoding="utf-8") as f:
            d = json.load(f)
        ok = d.get("v") == 1 and isinstance(d.get("port"), int) and d.get("token") and isinstance(d.get("pid"), int) and d["pid"] > 0
        return d if ok and _alive(d["pid"]) else None
    except Exception:
        return None


def _alive(pid):
    """Whether the hub that wrote the file still runs: a stale file's port may belong to another program by now,
    which would be handed the token. POSIX only: on Windows os.kill(pid, 0) would terminate the process."""
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it runs, as another user
    except Exception:
        return False


def _send(body):
    d = _discovery()
    if not d:
        return
    req = urllib.request.Request("http://127.0.0.1:%d/v1/hooks" % d["port"], data=body, method="POST", headers={"Authorization": "Bearer " + d["token"], "Content-Type": "application/json"})
    try:
        _opener.open(req, timeout=REQUEST_S).close()
    except Exception:
        pass  # the hub is down or refused: the screen still shows the state


def _worker():
    while True:
        body = _queue.get()
        try:
            _send(body)
        except Exception:
            pass
        finally:
            _queue.task_done()


def _report(hook, kwargs):
    try:
        payload = {"hook": hook}
        payload.update(_safe(kwargs))
        report = {"v": 1, "agent": "hermes", "at": time.time() * 1000, "pid": os.getpid(), "ancestry": _ancestry(os.getpid()), "cwd": os.getcwd(), "payload": payload}
        body = json.dumps(report).encode("utf-8")
        try:
            _queue.put_nowait(body)
        except queue.Full:
            try:
                _queue.get_nowait()  # the oldest report is the least useful one
                _queue.task_done()
            except queue.Empty:
                pass
            _queue.put_nowait(body)
    except Exception:
        pass


def _hook(name):
    def callback(**kwargs):
        _report(name, kwargs)
        return None

    return callback


def register(ctx):
    global _started
    if not os.environ.get("AGENT_LENS_HUB"):
        return
    if not _started:
        threading.Thread(target=_worker, name="agent-lens-report", daemon=True).start()
        _started = True
    for name in HOOKS:
        try:
            ctx.register_hook(name, _hook(name))
        except Exception:
            pass


def flush(timeout=5.0):
    """Waits until the queue is sent (the stand-in host calls it before exiting)."""
    if not _started:
        return
    done = threading.Event()
    threading.Thread(target=lambda: (_queue.join(), done.set()), daemon=True).start()
    done.wait(timeout)
