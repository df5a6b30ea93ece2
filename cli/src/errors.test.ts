import {
  AuthError,
  ForbiddenError,
  NetworkError,
  ServerError,
  UnauthenticatedError,
} from '@blockcatch/sdk';
import { describe, expect, it } from 'vitest';
import { badFlag, CommandFailure, commanderMessage, describeError, redact } from './errors.js';
import { commandLine } from './self-command.js';

describe('describeError', () => {
  it('gives usage errors exit 2 and a line naming the flag, the value and the fix', () => {
    const report = describeError(badFlag('--product', 'uber', 'use flex or spark.'));
    expect(report).toMatchObject({
      exitCode: 2,
      message: '--product: "uber" is not valid; use flex or spark.',
    });
  });

  it('gives failures exit 1 with what to do next', () => {
    expect(
      describeError(new AuthError('NotAuthenticated', 'User is not authenticated')).message,
    ).toContain(commandLine('login'));
    expect(describeError(new UnauthenticatedError(401, {})).message).toContain('sign in again');
    expect(
      describeError(new ForbiddenError(403, { message: 'Needs an admin.' })).message,
    ).toContain('Needs an admin.');
    expect(describeError(new ServerError(503, {})).message).toContain('try again');
    const offline = describeError(new NetworkError('down'), { gatewayUrl: 'http://x:1' });
    expect(offline).toMatchObject({ exitCode: 1 });
    expect(offline.message).toContain('Cannot reach http://x:1');
    expect(describeError(new CommandFailure('Stopped.')).exitCode).toBe(1);
  });

  it('keeps every message to one line', () => {
    for (const error of [new Error('a'), new NetworkError('b'), badFlag('--x', 'y', 'z.')]) {
      expect(describeError(error).message).not.toContain('\n');
    }
  });
});

describe('redact', () => {
  it('cuts tokens out of anything printed', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    expect(redact(`Authorization: ${jwt}`)).toBe('Authorization: [token]');
    expect(redact(`token=${jwt}, again "${jwt}"`)).toBe('token=[token], again "[token]"');
    expect(redact(`refresh ${'a'.repeat(120)}`)).toBe('refresh [token]');
  });
});

describe('commanderMessage', () => {
  it("keeps commander's suggestion, one or several, and drops it from the message", () => {
    expect(
      commanderMessage(
        'commander.unknownOption',
        "error: unknown option '--fro'\n(Did you mean --from?)",
      ),
    ).toBe('unknown option --fro; did you mean --from? (add --help for usage)');
    expect(
      commanderMessage(
        'commander.unknownCommand',
        "error: unknown command 'sned'\n(Did you mean one of send, sends?)",
      ),
    ).toContain('did you mean send, sends?');
    expect(commanderMessage('commander.unknownOption', "error: unknown option '--x'")).toContain(
      '--help',
    );
  });
});
