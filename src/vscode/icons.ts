import * as vscode from 'vscode';
import type { IconSpec } from '../views/labels';

export function toThemeIcon(i: IconSpec): vscode.ThemeIcon {
  return new vscode.ThemeIcon(i.id, i.color ? new vscode.ThemeColor(i.color) : undefined);
}
