// The type of a file from its first bytes (magic numbers), never from its name or the declared type.
import type { MediaType } from '../../shared/definitions/types.ts';

export const MIME: Record<MediaType, string> = { pdf: 'application/pdf', jpeg: 'image/jpeg', png: 'image/png' };
export const EXTENSION: Record<MediaType, string> = { pdf: 'pdf', jpeg: 'jpg', png: 'png' };
export const TYPE_NAMES: Record<MediaType, string> = { pdf: 'PDF', jpeg: 'JPEG', png: 'PNG' };

/** Bytes needed to decide. */
export const SNIFF_BYTES = 8;

export function sniff(head: Uint8Array): MediaType | undefined {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'pdf'; // %PDF-
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  return undefined;
}

/** A display or file name: no NUL or control characters, no path separators, no "." or "..", at most 200 characters. */
export function badName(name: string): string | undefined {
  if (!name.trim()) return 'Il nome del file è vuoto.';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'Il nome del file contiene caratteri non consentiti.';
  if (/[/\\]/.test(name) || name === '.' || name === '..') return 'Il nome del file non può contenere percorsi.';
  if (name.length > 200) return 'Il nome del file è troppo lungo (massimo 200 caratteri).';
  return undefined;
}
