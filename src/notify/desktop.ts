import * as l10n from '@vscode/l10n';
/**
 * The operating system's own notification, as one command line per platform: an argument array run without a
 * shell, the texts passed as arguments (or, on Windows, inside an encoded script with every quote doubled and
 * the XML escaped), never spliced into a command string.
 */
export interface DesktopText {
  title: string;
  body: string;
  /**
   * What a click opens: a URI Agent Lens built (`vscode://agent-lens.agent-lens/show-terminal?id=…`), never one
   * from outside text. The operating system hands it to VS Code, which comes forward and shows the terminal.
   */
  click?: string;
}

export interface DesktopOptions {
  /** Which programs are installed (notify-send, terminal-notifier). */
  has(program: string): boolean;
  sound: boolean;
  /** notify-send takes `--action` (libnotify 0.7.10 and later); older ones would refuse the whole call. */
  actions?: boolean;
}

/** The name notify-send prints when the notification itself is clicked (its default action). */
export const CLICKED = 'default';

const APP = 'Agent Lens';
/** VS Code's bundle id: terminal-notifier brings it forward when the notification is clicked. */
const VSCODE_BUNDLE = 'com.microsoft.VSCode';

/** The argv that shows `t` on `platform`, or undefined where there is no way. */
export function desktopArgv(platform: NodeJS.Platform, t: DesktopText, o: DesktopOptions): string[] | undefined {
  if (platform === 'linux') return linux(t, o);
  if (platform === 'darwin') return mac(t, o);
  if (platform === 'win32') return windows(t, o);
  return undefined;
}

/**
 * The freedesktop notification body is markup (servers render `<b>`, `<i>`, `<u>` and some `<a href>`), so the
 * body's `&`, `<` and `>` go as entities: a terminal's name or folder cannot restyle the text or make a link. The
 * summary is plain text by the specification.
 */
export function bodyMarkup(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** libnotify's notify-send, else the freedesktop notification service over D-Bus with gdbus. */
function linux(text: DesktopText, o: DesktopOptions): string[] {
  const t = { title: text.title, body: bodyMarkup(text.body) };
  if (o.has('notify-send'))
    return [
      'notify-send',
      `--app-name=${APP}`,
      '--urgency=normal',
      ...(o.sound ? ['--hint=string:sound-name:message-new-instant'] : []),
      // The click is reported on stdout (it implies --wait): the caller shows the terminal, since a Linux desktop
      // has no way to hand a URI to the app that sent the notification.
      // The button's label is read when the notification is made: the window's language, the CLI's English.
      ...(text.click && o.actions ? [`--action=${CLICKED}=${l10n.t('Show terminal')}`] : []),
      '--',
      t.title,
      t.body,
    ];
  const hints = o.sound ? "{'sound-name': <'message-new-instant'>}" : '{}';
  return [
    'gdbus',
    'call',
    '--session',
    '--dest=org.freedesktop.Notifications',
    '--object-path=/org/freedesktop/Notifications',
    '--method=org.freedesktop.Notifications.Notify',
    gvariant(APP),
    'uint32 0',
    "''",
    gvariant(t.title),
    gvariant(t.body),
    '@as []',
    hints,
    'int32 -1',
  ];
}

/** A GVariant text-format string: gdbus parses every argument as GVariant. */
export function gvariant(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * terminal-notifier when installed (a click opens the click URI, so VS Code comes forward and shows the
 * terminal; without one it activates VS Code), else AppleScript, which reads the texts
 * from its own argv (`on run argv`), so nothing in them is AppleScript; a click there opens Script Editor.
 */
function mac(t: DesktopText, o: DesktopOptions): string[] {
  if (o.has('terminal-notifier'))
    return [
      'terminal-notifier',
      '-title',
      APP,
      '-subtitle',
      t.title,
      '-message',
      t.body,
      ...(t.click ? ['-open', t.click] : ['-activate', VSCODE_BUNDLE]),
      ...(o.sound ? ['-sound', 'default'] : []),
    ];
  const sound = o.sound ? ' sound name "default"' : '';
  return [
    'osascript',
    '-e',
    'on run argv',
    '-e',
    `display notification (item 2 of argv) with title "${APP}" subtitle (item 1 of argv)${sound}`,
    '-e',
    'end run',
    t.title,
    t.body,
  ];
}

/** A WinRT toast from Windows PowerShell, its script base64-encoded UTF-16LE (PowerShell's -EncodedCommand). */
function windows(t: DesktopText, o: DesktopOptions): string[] {
  return [
    'powershell.exe',
    '-NoProfile',
    '-NonInteractive',
    '-ExecutionPolicy',
    'Bypass',
    '-EncodedCommand',
    Buffer.from(toastScript(t, o), 'utf16le').toString('base64'),
  ];
}

/** PowerShell's single-quoted string: nothing expands in it, a quote is doubled. */
function psString(s: string): string {
  return `'${s.replace(/['\u2018\u2019\u201a\u201b]/g, (q) => q + q)}'`;
}

export function toastScript(t: DesktopText, o: Pick<DesktopOptions, 'sound'>): string {
  const audio = o.sound ? '<audio src="ms-winsoundevent:Notification.IM"/>' : '<audio silent="true"/>';
  return [
    '[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] | Out-Null',
    '[Windows.Data.Xml.Dom.XmlDocument, Windows.Data.Xml.Dom.XmlDocument, ContentType = WindowsRuntime] | Out-Null',
    `$title = [System.Security.SecurityElement]::Escape(${psString(t.title)})`,
    `$body = [System.Security.SecurityElement]::Escape(${psString(t.body)})`,
    // A click launches the URI (activationType protocol): Windows hands it to VS Code, which shows the terminal.
    `$launch = [System.Security.SecurityElement]::Escape(${psString(t.click ?? '')})`,
    `$open = $(if ($launch) { " activationType='protocol' launch='$launch'" } else { '' })`,
    `$xml = "<toast$open><visual><binding template='ToastGeneric'><text>$title</text><text>$body</text></binding></visual>${audio}</toast>"`,
    '$doc = New-Object Windows.Data.Xml.Dom.XmlDocument',
    '$doc.LoadXml($xml)',
    "$app = '{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\\WindowsPowerShell\\v1.0\\powershell.exe'",
    '[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier($app).Show([Windows.UI.Notifications.ToastNotification]::new($doc))',
  ].join('\n');
}
