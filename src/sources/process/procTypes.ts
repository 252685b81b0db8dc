/**
 * What the process readers of every platform hand back: one process, and its place in job control. Their own
 * module so that the platform parsers (darwin.ts, shells.ts) and the readers (processTree.ts) need not import
 * each other.
 */

export interface ProcInfo {
  pid: number;
  ppid: number;
  /** Executable name (Linux comm, macOS/Windows image name). */
  name: string;
  args: string[];
}

/** A process's place in job control: its process group, its controlling tty and that tty's foreground group. */
export interface TtyJob {
  pid: number;
  pgid: number;
  /** The foreground process group of the process's controlling terminal; -1 or 0 when it has none. */
  tpgid: number;
  /** The controlling terminal: Linux's tty_nr as a number string, ps's tty name elsewhere; '' when there is none. */
  tty: string;
}

/**
 * One process of a whole-table read (src/sources/process/table.ts: macOS and the BSDs' ps, Windows' CIM query):
 * what each platform's table carries beyond ProcInfo.
 */
export interface TableRow extends ProcInfo {
  /** Where the platform has job control (not Windows: its consoles have no process groups). */
  job?: TtyJob;
  /** When it started, in epoch ms, where the table says (Windows' CreationDate; macOS's ps table does not). */
  started?: number;
}
