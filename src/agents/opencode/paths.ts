import * as path from 'path';

/**
 * Where OpenCode, or a fork of it that renamed it (Kilo: `kilo`, `KILO_…`), keeps its configuration and its
 * database, as it computes them: `<PREFIX>_CONFIG_DIR`, else `<app>` in the XDG config folder (plugins go in its
 * `plugin/`); `<PREFIX>_DB` (absolute, `:memory:`, or a name in its data folder), else `<app>.db` there (a release
 * build's name; a channel build's `<app>-<channel>.db` is not looked for).
 */
export function openCodePaths(app: string, prefix: string) {
  return {
    configDir: (env: NodeJS.ProcessEnv, home: string): string =>
      env[`${prefix}_CONFIG_DIR`] || path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), app),
    databasePath: (env: NodeJS.ProcessEnv, home: string): string => {
      const data = path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), app);
      const custom = env[`${prefix}_DB`];
      if (custom) return custom === ':memory:' || path.isAbsolute(custom) ? custom : path.join(data, custom);
      return path.join(data, `${app}.db`);
    },
  };
}
