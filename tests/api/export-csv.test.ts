// pins.csv of an export is opened in spreadsheets: a cell that starts like a formula (=, +, -, @,
// tab, CR) is written with a leading single quote so it shows as text (OWASP "CSV injection"), and
// a ZIP of images carrying such a pins.csv gets its cells back as they were (backend/export/csv-cells.ts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, test } from 'vitest';
import yauzl from 'yauzl';
import { readArchive } from '../../backend/imports/archive-items.ts';
import { openArchive } from '../../backend/imports/zip-archive.ts';
import { csvCellIn, csvCellOut } from '../../backend/export/csv-cells.ts';
import type { ApiClient } from '../support/client.ts';
import { addToBoard, newBoard, newPin, signUpUser } from '../support/factories.ts';
import { useTestServer } from '../support/use-test-server.ts';
import { honestZip } from '../support/zip-fixtures.ts';

const server = useTestServer();

/** One entry of a ZIP, as text. */
function entryText(bytes: Buffer, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        });
      });
      zip.on('end', () => reject(new Error(`${name} is not in the ZIP`)));
      zip.readEntry();
    });
  });
}

async function exportCsv(client: ApiClient): Promise<string> {
  const response = await fetch(`${server.url}/api/export`, { headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
  expect(response.status).toBe(200);
  return entryText(Buffer.from(await response.arrayBuffer()), 'pins.csv');
}

/** Texts a spreadsheet would run as formulas, and their neighbours that it would not. */
const FORMULAS = ['=HYPERLINK("https://evil.test","Click")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1', "'=already quoted"];

describe('pins.csv in the export', () => {
  test('no cell starts like a formula: such cells are prefixed with a single quote', async () => {
    const { client } = await signUpUser(server.url);
    const board = await newBoard(client, '@board');
    for (const text of FORMULAS) {
      const pin = await newPin(client, { title: `${text} title`, description: `${text} description` });
      await addToBoard(client, board.id, pin.id);
    }
    await newPin(client, { title: 'Plain title', description: 'A "quoted", comma' });
    const rows = parse(await exportCsv(client), { columns: true }) as Array<Record<string, string>>;
    const stored = (row: Record<string, string>) => ({ title: row.title, description: row.description, board: row.board });
    // What a spreadsheet would see: nothing starts with a formula character.
    for (const row of rows) for (const cell of Object.values(row)) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
    // The pins' texts as the server keeps them (a title is trimmed), each behind its quote.
    const titles = rows.map((row) => row.title);
    expect(titles).toContain(`'=HYPERLINK("https://evil.test","Click") title`);
    expect(titles).toContain("'+1+1 title");
    expect(titles).toContain("'-2+3 title");
    expect(titles).toContain("'@SUM(A1) title");
    expect(titles).toContain("''=already quoted title");
    expect(rows.map((row) => row.board)).toContain("'@board");
    expect(stored(rows.at(-1) as Record<string, string>)).toEqual({ title: 'Plain title', description: 'A "quoted", comma', board: '' });
  });
});

describe('csvCellOut and csvCellIn', () => {
  test('prefix what a spreadsheet would run and give back exactly what went in', () => {
    expect(csvCellOut('=1+1')).toBe("'=1+1");
    expect(csvCellOut('plain')).toBe('plain');
    expect(csvCellOut('')).toBe('');
    expect(csvCellOut("'quoted")).toBe("'quoted");
    for (const text of [...FORMULAS, "''=1", "'", "'x", 'a=b', '', ' -1']) expect(csvCellIn(csvCellOut(text)), JSON.stringify(text)).toBe(text);
    // A hand-made CSV's quote before a plain text stays: only the export's own prefix is taken off.
    expect(csvCellIn("'plain")).toBe("'plain");
    expect(csvCellIn("'=1")).toBe('=1');
  });

  test('an exported pins.csv in a ZIP of images reads back as the texts that were exported', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'export-csv-'));
    try {
      const csv = `file,title,description,source,board\nshot.png,${csvCellOut('=1+1')},${csvCellOut('-minus')},,${csvCellOut('@board')}\n`;
      const target = path.join(dir, 'images.zip');
      await writeFile(
        target,
        await honestZip([
          { name: 'shot.png', data: 'png bytes' },
          { name: 'pins.csv', data: csv },
        ]),
      );
      const opened = await openArchive(target);
      const contents = await readArchive(opened).finally(() => opened.close());
      expect(contents.items.map(({ title, description, boards }) => ({ title, description, boards }))).toEqual([{ title: '=1+1', description: '-minus', boards: ['@board'] }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
