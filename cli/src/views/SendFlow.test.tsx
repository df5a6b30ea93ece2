import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { loadTranslations } from '../i18n.js';
import type { ReviewColumn } from './Review.js';
import { SendFlow, type SendFlowProps } from './SendFlow.js';
import type { ReviewRow } from './send-flow-state.js';

const t = await loadTranslations('en');
const KEYS = {
  enter: '\r',
  esc: '\u001B',
  tab: '\t',
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  backspace: '\u007F',
};

const rows: ReviewRow[] = Array.from({ length: 45 }, (_, i) => {
  const phone = `+1305555${String(1000 + i).padStart(4, '0')}`;
  const name = i === 7 ? 'Zoe Zapata' : `Driver ${String(i).padStart(2, '0')}`;
  return {
    name,
    phoneNumber: phone,
    humanRegion: i < 20 ? 'Miami' : 'Orlando',
    referral: null,
    phone,
    cells: { name, phone },
  };
});
const columns: ReviewColumn[] = [
  { key: 'name', title: 'Name' },
  { key: 'phone', title: 'Phone' },
];

type OnSend = SendFlowProps['onSend'];

function setup(
  onSend = vi.fn<OnSend>(async (phones) => `Message sent successfully to ${phones.length} users.`),
  size?: SendFlowProps['size'],
) {
  const onFinish = vi.fn();
  const props = {
    t,
    rows,
    columns,
    filters: [['Audience', 'Flex']] as const,
    message: ['Message: Renew today', 'Encoding GSM-7, 1 segment(s), 148 characters remaining'],
    onSend,
    onFinish,
  };
  const view = render(<SendFlow {...props} {...(size ? { size } : {})} />);
  const resize = (next: NonNullable<SendFlowProps['size']>) =>
    view.rerender(<SendFlow {...props} size={next} />);
  return { ...view, onSend, onFinish, resize };
}

/** One turn of the event loop: React runs the last render's effects. */
const nextTurn = () => new Promise<void>((next) => setImmediate(next));

interface View {
  stdin: { write(s: string): void };
  lastFrame(): string | undefined;
}

/**
 * Types keys one at a time, each once the previous one was drawn, so a test can look at every
 * screen on the way. Every key given here must change the screen.
 */
async function press(view: View, ...keys: string[]) {
  for (const key of keys) {
    const before = view.lastFrame();
    view.stdin.write(key);
    await eventually(() => expect(view.lastFrame()).not.toBe(before));
    await nextTurn();
    await nextTurn();
  }
}

describe('SendFlow', () => {
  it('shows the filter summary, then the review with every row selected and Page 1', async () => {
    const { lastFrame, stdin } = setup();
    expect(lastFrame()).toContain('Audience: Flex');
    expect(lastFrame()).toContain('45 recipients');
    await press({ stdin, lastFrame }, KEYS.enter);
    const frame = lastFrame()!;
    expect(frame).toContain('45 selected');
    expect(frame).toContain('Page 1 / 3');
    expect(frame).toContain('Rows per page: 20');
    expect(frame).toContain('characters remaining');
    expect(frame.match(/\[x\]/g)).toHaveLength(20);
  });

  it('filters the table as the search box is typed in, and erases', async () => {
    const { lastFrame, stdin } = setup();
    await press({ stdin, lastFrame }, KEYS.enter, '/', 'z', 'o', 'e');
    expect(lastFrame()).toContain('Zoe Zapata');
    expect(lastFrame()).not.toContain('Driver 01');
    await press(
      { stdin, lastFrame },
      KEYS.backspace,
      KEYS.backspace,
      KEYS.backspace,
      'x',
      'y',
      'z',
    );
    expect(lastFrame()).toContain('No users match these filters.');
  });

  it('toggles a row and all rows, counting the selection', async () => {
    const { lastFrame, stdin } = setup();
    await press({ stdin, lastFrame }, KEYS.enter, KEYS.down, ' ');
    expect(lastFrame()).toContain('44 selected');
    expect(lastFrame()).toMatch(/>\[ \]Driver 01/);
    await press({ stdin, lastFrame }, 'a');
    expect(lastFrame()).toContain('45 selected');
    await press({ stdin, lastFrame }, 'a');
    expect(lastFrame()).toContain('0 selected');
  });

  it('pages forward and back and cycles the rows per page', async () => {
    const { lastFrame, stdin } = setup();
    await press({ stdin, lastFrame }, KEYS.enter, KEYS.right);
    expect(lastFrame()).toContain('Page 2 / 3');
    expect(lastFrame()).toContain('Driver 20');
    await press({ stdin, lastFrame }, KEYS.right);
    expect(lastFrame()).toContain('Page 3 / 3');
    expect(lastFrame()!.match(/\[x\]/g)).toHaveLength(5);
    await press({ stdin, lastFrame }, KEYS.left, 'r');
    expect(lastFrame()).toContain('Rows per page: 40');
    expect(lastFrame()).toContain('Page 1 / 2');
  });

  it('cancels without sending', async () => {
    const { lastFrame, stdin, onSend, onFinish } = setup();
    await press({ stdin, lastFrame }, KEYS.enter, 'c');
    expect(lastFrame()).toContain('Cancelled: nothing was sent.');
    expect(onSend).not.toHaveBeenCalled();
    expect(onFinish).toHaveBeenCalledWith('cancelled');
  });

  it('takes s and sí as yes in Spanish', async () => {
    const es = await loadTranslations('es');
    for (const answer of ['s', 'sí']) {
      const onSend = vi.fn<OnSend>(async () => 'Enviado');
      const view = render(
        <SendFlow
          t={es}
          rows={rows}
          columns={columns}
          filters={[['Audiencia', 'Flex']]}
          message={[]}
          onSend={onSend}
          onFinish={vi.fn()}
        />,
      );
      await press(view, KEYS.enter, 's');
      expect(view.lastFrame()).toContain('s, sí o Enter: enviar');
      await press(view, answer);
      await eventually(() => expect(onSend).toHaveBeenCalledTimes(1));
      view.unmount();
    }
  });

  it('reads keys typed before the screen redrew in the step they were meant for', async () => {
    const { lastFrame, stdin, onSend } = setup();
    // Enter, a deselection, Send and yes, typed faster than any step is drawn.
    for (const key of [KEYS.enter, KEYS.down, ' ', 's', 'y']) stdin.write(key);
    await eventually(() => expect(onSend).toHaveBeenCalledTimes(1));
    const phones = onSend.mock.calls[0]![0] as string[];
    expect(phones).toHaveLength(44);
    expect(phones).not.toContain('+13055551001');
    await eventually(() => expect(lastFrame()).toContain('Message sent successfully to 44 users.'));
  });

  it('reads keys that reached it in one piece one by one', async () => {
    const { lastFrame, stdin } = setup();
    // Enter, down, a deselection and Send, read by the terminal at once.
    stdin.write(`${KEYS.enter}${KEYS.down} s`);
    await eventually(() =>
      expect(lastFrame()).toContain('Are you sure you want to send this message to 44 users?'),
    );
  });

  it('asks for confirmation with the count, goes back on n, and sends the selection on y', async () => {
    const { lastFrame, stdin, onSend, onFinish } = setup();
    await press({ stdin, lastFrame }, KEYS.enter, ' ', 's');
    expect(lastFrame()).toContain('Are you sure you want to send this message to 44 users?');
    await press({ stdin, lastFrame }, 'n');
    expect(lastFrame()).toContain('44 selected');
    await press({ stdin, lastFrame }, 's', 'y');
    await eventually(() => {
      expect(lastFrame()).toContain('Message sent successfully to 44 users.');
      expect(onFinish).toHaveBeenCalledWith('done');
    });
    expect(onSend).toHaveBeenCalledTimes(1);
    const phones = onSend.mock.calls[0]![0] as string[];
    expect(phones).toHaveLength(44);
    expect(phones).not.toContain('+13055551000');
  });

  it('draws the progress bar while sending', async () => {
    let release: (value: string) => void = () => {};
    const onSend = vi.fn<OnSend>(
      (_phones: string[], report: (p: { done: number; total: number }) => void) =>
        new Promise<string>((resolve) => {
          report({ done: 20, total: 45 });
          release = resolve;
        }),
    );
    const { lastFrame, stdin } = setup(onSend);
    await press({ stdin, lastFrame }, KEYS.enter, 's', KEYS.enter);
    // The bar first draws at 0%; the reported progress arrives in a render of its own.
    await eventually(() => {
      expect(lastFrame()).toContain('Sending message...');
      expect(lastFrame()).toContain('44%');
      expect(lastFrame()).toContain('Sending: 20 of 45 recipients handed to the gateway');
    });
    release('done!');
    await eventually(() => expect(lastFrame()).toContain('done!'));
  });

  it('does not reach the confirmation with nobody selected', async () => {
    const { lastFrame, stdin } = setup();
    await press({ stdin, lastFrame }, KEYS.enter, 'a');
    expect(lastFrame()).toContain('0 selected');
    // 's' changes nothing on screen, so the next key proves it was handled: 'a' still selects all
    // in the review, where a confirmation would have ignored it.
    stdin.write('s');
    await press({ stdin, lastFrame }, 'a');
    expect(lastFrame()).toContain('45 selected');
    expect(lastFrame()).not.toContain('Are you sure');
  });

  it('says so when Send is pressed with nobody selected, and clears it on the next key', async () => {
    const { lastFrame, stdin } = setup();
    await press({ stdin, lastFrame }, KEYS.enter, 'a', 's');
    expect(lastFrame()).toContain('Nothing is selected');
    await press({ stdin, lastFrame }, KEYS.down);
    expect(lastFrame()).not.toContain('Nothing is selected');
  });
});

describe('SendFlow on a sized terminal', () => {
  const wide: ReviewColumn[] = [
    { key: 'name', title: 'Name' },
    { key: 'phone', title: 'Phone' },
    { key: 'goodStanding', title: 'Good standing' },
    { key: 'filtersComplete', title: 'Filters complete' },
  ];
  const longRows: ReviewRow[] = rows.map((r) => ({
    ...r,
    cells: {
      name: `${r.name} with a very long family name indeed`,
      phone: '+1 (305) 555-1000',
      goodStanding: 'Yes',
      filtersComplete: 'No',
    },
  }));

  function sized(size: { columns: number; rows: number }) {
    const onFinish = vi.fn();
    const props = {
      t,
      rows: longRows,
      columns: wide,
      filters: [] as const,
      message: ['Message: Renew today'],
      onSend: vi.fn<OnSend>(async () => 'sent'),
      onFinish,
    };
    const view = render(<SendFlow {...props} size={size} />);
    return {
      ...view,
      resize: (next: { columns: number; rows: number }) =>
        view.rerender(<SendFlow {...props} size={next} />),
    };
  }

  it('fits 60 columns: headers whole, long names cut with an ellipsis', async () => {
    const view = sized({ columns: 60, rows: 40 });
    await press(view, KEYS.enter);
    const lines = view.lastFrame()!.split('\n');
    const header = lines.find((l) => l.includes('Phone'))!;
    expect(header).toContain('Good standing');
    expect(header).toContain('Filters complete');
    const row = lines.find((l) => l.includes('Driver 01'))!;
    expect(row).toContain('…');
    expect(
      Math.max(...lines.filter((l) => l.includes('[x]')).map((l) => l.length)),
    ).toBeLessThanOrEqual(60);
  });

  it('shows whole cells on 200 columns', async () => {
    const view = sized({ columns: 200, rows: 40 });
    await press(view, KEYS.enter);
    expect(view.lastFrame()).toContain('Driver 01 with a very long family name indeed');
    expect(view.lastFrame()).not.toContain('…');
  });

  it('caps the rows of a page by the height, and re-fits when the terminal is resized', async () => {
    const view = sized({ columns: 100, rows: 20 });
    await press(view, KEYS.enter);
    const shownAt20 = view.lastFrame()!.match(/\[x\]/g)!.length;
    expect(shownAt20).toBeLessThan(20);
    expect(view.lastFrame()!.split('\n').length).toBeLessThanOrEqual(20);
    view.resize({ columns: 100, rows: 60 });
    await eventually(() => expect(view.lastFrame()!.match(/\[x\]/g)).toHaveLength(20));
  });
});

describe('SendFlow with numbers the gateway would skip', () => {
  const wide: ReviewColumn[] = [
    { key: 'name', title: 'Name' },
    { key: 'phone', title: 'Phone' },
    { key: 'region', title: 'Region' },
    { key: 'goodStanding', title: 'Good standing' },
  ];
  const marked: ReviewRow[] = rows.map((r, i) => ({
    ...r,
    cells: { name: r.name, phone: r.phone, region: r.humanRegion ?? '', goodStanding: 'Yes' },
    blocked: i === 1 ? 'landline' : i === 2 ? 'opted-out' : undefined,
  }));

  function marks(columnsWide: number) {
    const previewFor = vi.fn(async (phone: string) => `Hi ${phone}, renew today`);
    const onSend = vi.fn<OnSend>(async (phones) => `sent to ${phones.length}`);
    const view = render(
      <SendFlow
        t={t}
        rows={marked}
        columns={wide}
        filters={[]}
        message={['Message: Renew today', '1 recipient will wait for the end of quiet hours.']}
        size={{ columns: columnsWide, rows: 40 }}
        previewFor={previewFor}
        onSend={onSend}
        onFinish={vi.fn()}
      />,
    );
    return { ...view, previewFor, onSend };
  }

  const line = (frame: string, text: string) => frame.split('\n').find((l) => l.includes(text))!;

  it('on 60 columns, strikes them out with the reason, keeps them out of the selection, and previews the first selected', async () => {
    const view = marks(60);
    await press(view, KEYS.enter);
    await eventually(() =>
      expect(view.lastFrame()).toContain('As Driver 00 will read it: Hi +13055551000'),
    );
    const frame = view.lastFrame()!;
    expect(frame).toContain('43 selected');
    expect(line(frame, 'Driver 01')).toMatch(/^ \[-\]Driver 01 .*landline/);
    expect(line(frame, 'Driver 02')).toMatch(/^ \[-\]Driver 02 .*opted out/);
    expect(frame).toContain('1 recipient will wait for the end of quiet hours.');
    const tableLines = frame.split('\n').filter((l) => /\[[x -]\]/.test(l));
    expect(Math.max(...tableLines.map((l) => l.length))).toBeLessThanOrEqual(60);
    // A struck-out row cannot be selected, one by one or all at once.
    await press(view, KEYS.down);
    view.stdin.write(' ');
    await press(view, 'a');
    expect(view.lastFrame()).toContain('0 selected');
    expect(line(view.lastFrame()!, 'Driver 01')).toContain('[-]');
    await press(view, 'a');
    expect(view.lastFrame()).toContain('43 selected');
    // Taking out the first recipient previews the message for the next one that can be sent to.
    await press(view, KEYS.up, ' ');
    await eventually(() =>
      expect(view.lastFrame()).toContain('As Driver 03 will read it: Hi +13055551003'),
    );
    expect(view.previewFor).toHaveBeenCalledWith('+13055551003');
    await press(view, 's', 'y');
    await eventually(() => expect(view.onSend).toHaveBeenCalled());
    const sentTo = view.onSend.mock.calls[0]![0];
    expect(sentTo).toHaveLength(42);
    expect(sentTo).not.toContain(marked[1]!.phone);
    expect(sentTo).not.toContain(marked[2]!.phone);
  });

  it('on 200 columns, shows the struck-out rows whole with their reason', async () => {
    const view = marks(200);
    await press(view, KEYS.enter);
    const frame = view.lastFrame()!;
    expect(line(frame, 'Driver 01')).toMatch(/\[-\]Driver 01\s+\+13055551001\s+landline/);
    expect(line(frame, 'Driver 02')).toContain('opted out');
    expect(frame).not.toContain('…');
  });
});
