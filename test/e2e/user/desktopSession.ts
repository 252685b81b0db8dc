/**
 * The user's desktop for desktop.user.test.ts: a virtual X display, a D-Bus session and Debian's dunst serving
 * org.freedesktop.Notifications (test/unit/notify/desktopServer.ts), with a dunst configured to be read in a
 * screenshot, and the screen captured as a user's screenshot tool does (`xwd -root`), cropped to what is drawn.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as zlib from 'zlib';
import { type DesktopServer, haveDesktopServer, startDesktopServer } from '../../unit/notify/desktopServer';

/** Wide enough for a title and a folder, a legible font, and on screen until closed (the screenshot needs it). */
const DUNSTRC = `[global]
    history_length = 50
    sticky_history = yes
    width = 640
    origin = top-right
    offset = 24x24
    font = DejaVu Sans 13
    frame_width = 2
    frame_color = "#6b8fc7"
    separator_height = 2
    padding = 14
    horizontal_padding = 16
    corner_radius = 6
    format = "<b>%a</b>\\n<b>%s</b>\\n%b"
    word_wrap = yes
[urgency_low]
    background = "#1f2430"
    foreground = "#e6e9ef"
    timeout = 0
[urgency_normal]
    background = "#1f2430"
    foreground = "#e6e9ef"
    timeout = 0
[urgency_critical]
    background = "#1f2430"
    foreground = "#e6e9ef"
    timeout = 0
`;

/** Why there can be no desktop notification server here, or undefined when there can. */
export function desktopMissing(): string | undefined {
  if (process.platform !== 'linux') return `desktop notifications are tested on Linux only (this is ${process.platform})`;
  if (!haveDesktopServer()) return 'Xvfb, dunst, dunstctl or dbus-daemon is missing (apt-get install xvfb dunst dbus)';
  return undefined;
}

export const canCapture = (): boolean => spawnSync('sh', ['-c', 'command -v xwd']).status === 0;

export async function startDesktop(): Promise<DesktopServer> {
  return startDesktopServer({ screen: '1280x800x24', dunstrc: DUNSTRC });
}

/** The X screen as a PNG, cropped to what is drawn on its black root (dunst's notification) plus a margin. */
export function captureScreen(display: string, file: string, margin = 16): void {
  const xwd = execFileSync('xwd', ['-root', '-silent', '-display', display], { maxBuffer: 64 << 20 });
  const img = decodeXwd(xwd);
  const box = drawn(img) ?? { x0: 0, y0: 0, x1: img.width - 1, y1: img.height - 1 };
  const x0 = Math.max(0, box.x0 - margin);
  const y0 = Math.max(0, box.y0 - margin);
  const x1 = Math.min(img.width - 1, box.x1 + margin);
  const y1 = Math.min(img.height - 1, box.y1 + margin);
  fs.writeFileSync(file, encodePng(img, x0, y0, x1 - x0 + 1, y1 - y0 + 1));
}

interface Rgb {
  width: number;
  height: number;
  /** 3 bytes a pixel, row after row. */
  rgb: Buffer;
}

/** An X window dump (XWD version 7) of a TrueColor screen, 24 or 32 bits a pixel, as RGB. */
function decodeXwd(b: Buffer): Rgb {
  const h = (i: number) => b.readUInt32BE(i * 4);
  const [headerSize, version, format, , width, height] = [h(0), h(1), h(2), h(3), h(4), h(5)];
  const [byteOrder, bitsPerPixel, bytesPerLine, ncolors] = [h(7), h(11), h(12), h(19)];
  const masks = [h(14), h(15), h(16)];
  if (version !== 7 || format !== 2 || (bitsPerPixel !== 32 && bitsPerPixel !== 24))
    throw new Error(`an XWD this reader does not know: version ${version}, format ${format}, ${bitsPerPixel} bits`);
  const data = headerSize + ncolors * 12;
  const shift = masks.map((m) => Math.log2(m & -m));
  const bytes = bitsPerPixel / 8;
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = data + y * bytesPerLine + x * bytes;
      let px = 0;
      for (let k = 0; k < bytes; k++) px |= b[at + (byteOrder === 0 ? k : bytes - 1 - k)] << (8 * k);
      for (let c = 0; c < 3; c++) rgb[(y * width + x) * 3 + c] = ((px & masks[c]) >>> shift[c]) & 0xff;
    }
  return { width, height, rgb };
}

/** The box around every pixel that is not the root window's black, or undefined on an empty screen. */
function drawn(img: Rgb): { x0: number; y0: number; x1: number; y1: number } | undefined {
  let box: { x0: number; y0: number; x1: number; y1: number } | undefined;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 3;
      if (img.rgb[i] + img.rgb[i + 1] + img.rgb[i + 2] === 0) continue;
      box = box
        ? { x0: Math.min(box.x0, x), y0: Math.min(box.y0, y), x1: Math.max(box.x1, x), y1: Math.max(box.y1, y) }
        : { x0: x, y0: y, x1: x, y1: y };
    }
  return box;
}

/** A region of an RGB image as an 8-bit RGB PNG (no filter, deflated). */
function encodePng(img: Rgb, x0: number, y0: number, w: number, hgt: number): Buffer {
  const raw = Buffer.alloc((w * 3 + 1) * hgt);
  for (let y = 0; y < hgt; y++) {
    const from = ((y0 + y) * img.width + x0) * 3;
    img.rgb.copy(raw, y * (w * 3 + 1) + 1, from, from + w * 3);
  }
  const chunk = (type: string, body: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(body.length);
    const tb = Buffer.concat([Buffer.from(type, 'ascii'), body]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(tb) >>> 0);
    return Buffer.concat([len, tb, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(hgt, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
