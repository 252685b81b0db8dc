import { parseArgs, type ParseArgsConfig } from 'util';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
>['values'];

/**
 * Node's own parser (`util.parseArgs`, strict), its errors worded as the CLI's usage lines: an unknown option,
 * a missing value or a stray argument, by name. Positional arguments are refused unless `positionals`.
 */
export function parseCommandLine<const O extends Options>(
  args: string[],
  options: O,
  usage: (message: string) => Error,
  positionals = false,
): { values: Values<O>; positionals: string[] } {
  try {
    const r = parseArgs({ args, options, allowPositionals: positionals, strict: true });
    return { values: r.values as Values<O>, positionals: r.positionals };
  } catch (e) {
    throw usage(usageLine(e as NodeJS.ErrnoException));
  }
}

function usageLine(e: NodeJS.ErrnoException): string {
  const option = /'(-{1,2}[^' ]+)/.exec(e.message)?.[1];
  const arg = /argument '([^']*)'/.exec(e.message)?.[1];
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown argument ${option ?? e.message}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (option && /argument missing/.test(e.message)) return `${option} needs a value`;
      if (option && /does not take an argument/.test(e.message)) return `${option} takes no value`;
      // "argument is ambiguous": Node's own words say how to pass a value that starts with "-".
      return e.message;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${arg ?? e.message}`;
    default:
      return e.message;
  }
}
