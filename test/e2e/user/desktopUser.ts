import type { DesktopServer } from '../../unit/notify/desktopServer';
import { userMachine, type UserMachine } from './agents';
import { desktopMissing, startDesktop } from './desktopSession';
import { Workbench } from './workbench';

/** A user at a desktop: its notification server, their machine (agents, mocks) and code-server with the .vsix. */
export interface DesktopUser {
  desk: DesktopServer;
  m: UserMachine;
  wb: Workbench;
  close(): Promise<void>;
}

/**
 * Starts the desktop (Xvfb, D-Bus, dunst) and code-server inheriting its DISPLAY and bus, as a user's desktop
 * session would give it, with `settings` in the user settings and the hooks installed from the palette.
 * Undefined (the suite skipped, the reason printed) where there can be no notification server, unless
 * AGENT_LENS_REQUIRE_DESKTOP is set (CI): then it throws.
 */
export async function desktopUser(ctx: Mocha.Context, name: string, settings: Record<string, unknown>): Promise<DesktopUser | undefined> {
  const missing = desktopMissing();
  if (missing && process.env.AGENT_LENS_REQUIRE_DESKTOP) throw new Error(`AGENT_LENS_REQUIRE_DESKTOP is set but ${missing}`);
  if (missing) {
    console.log(`      skipped: ${missing}`);
    ctx.skip();
    return undefined;
  }
  const desk = await startDesktop();
  let m: UserMachine | undefined;
  let wb: Workbench | undefined;
  try {
    m = await userMachine(name);
    const display = { DISPLAY: String(desk.env.DISPLAY), DBUS_SESSION_BUS_ADDRESS: String(desk.env.DBUS_SESSION_BUS_ADDRESS) };
    wb = await Workbench.start({ name, home: m.home, workspace: m.workspace, env: { ...m.env, ...display }, settings });
    await wb.installHooks();
  } catch (e) {
    // Nothing it started outlives a failed start.
    await wb?.close();
    await m?.dispose();
    await desk.stop();
    throw e;
  }
  return {
    desk,
    m: m!,
    wb: wb!,
    close: async () => {
      await wb!.close();
      await m!.dispose();
      await desk.stop();
    },
  };
}
