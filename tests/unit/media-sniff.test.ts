// File types from the first bytes and the name rules of an upload.
import { describe, expect, it } from 'vitest';
import { badName, sniff } from '../../src/server/media/sniff.ts';

describe('sniff', () => {
  it('knows PDF, JPEG and PNG by their magic numbers, nothing else', () => {
    expect(sniff(Buffer.from('%PDF-1.7\n'))).toBe('pdf');
    expect(sniff(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]))).toBe('jpeg');
    expect(sniff(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniff(Buffer.from('%PDF'))).toBeUndefined();
    expect(sniff(Buffer.from('<html><body>%PDF-</body>'))).toBeUndefined();
    expect(sniff(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x00]))).toBeUndefined();
    expect(sniff(Buffer.from('GIF89a..'))).toBeUndefined();
  });
});

describe('badName', () => {
  it('refuses NUL and control characters, path separators, dot names, empty and overlong names', () => {
    expect(badName('Carta identità.pdf')).toBeUndefined();
    expect(badName('a\u0000.pdf')).toMatch(/caratteri non consentiti/);
    expect(badName('a\nb.pdf')).toMatch(/caratteri non consentiti/);
    expect(badName('../../etc/passwd')).toBe('Il nome del file non può contenere percorsi.');
    expect(badName('..\\windows.pdf')).toBe('Il nome del file non può contenere percorsi.');
    expect(badName('..')).toBe('Il nome del file non può contenere percorsi.');
    expect(badName('  ')).toBe('Il nome del file è vuoto.');
    expect(badName(`${'a'.repeat(201)}.pdf`)).toMatch(/troppo lungo/);
  });
});
