import * as l10n from '@vscode/l10n';
import { z } from 'zod';

/**
 * zod's own words for what is wrong with a value, in the window's language: the channels kept in secret storage and
 * the ones typed in Configure Notifications are parsed with it (./channelList.ts). The CLI's `--notify` file is not:
 * there zod's English is what a person at a terminal reads. A message a schema gives itself (./config.ts) is kept:
 * zod never asks a map about those, and one a schema's own map gave differs from zod's default, so it passes through.
 */
export const issueWords: z.ZodErrorMap = (issue, ctx) => {
  const zods = z.defaultErrorMap(issue, { data: ctx.data, defaultError: '' }).message;
  if (ctx.defaultError !== zods) return { message: ctx.defaultError };
  return { message: wordsFor(issue) ?? ctx.defaultError };
};

/** The issues a stored or typed channel can have; undefined keeps zod's words. JSON types and values stay as written. */
function wordsFor(issue: z.ZodIssueOptionalMessage): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.received === 'undefined') return l10n.t('is missing');
      return issue.expected === 'integer'
        ? l10n.t('must be a whole number')
        : l10n.t('must be {0}, not {1}', issue.expected, issue.received);
    case 'invalid_literal':
      return l10n.t('must be {0}', JSON.stringify(issue.expected));
    case 'invalid_enum_value':
    case 'invalid_union_discriminator':
      return l10n.t('must be one of {0}', issue.options.map((o) => JSON.stringify(o)).join(', '));
    case 'too_small':
      if (issue.type === 'array') return l10n.t('must have at least {0} item(s)', Number(issue.minimum));
      if (issue.type === 'string' && Number(issue.minimum) === 1) return l10n.t('must not be empty');
      return issue.type === 'number' && issue.inclusive ? l10n.t('must be at least {0}', Number(issue.minimum)) : undefined;
    case 'too_big':
      return issue.type === 'number' && issue.inclusive ? l10n.t('must be at most {0}', Number(issue.maximum)) : undefined;
    default:
      return undefined;
  }
}
