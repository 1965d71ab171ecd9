import { detectLanguage } from "./language.ts";
import { decodeText, utf16Bom } from "../files/mod.ts";

/** What L1 knows about a file without parsing it. */
export interface FileInfo {
  /** True when the bytes sniffed are not text. */
  binary: boolean;
  /** The detected language, when one is recognised. */
  language?: string;
  /** The first meaningful line, when there is one. */
  summary?: string;
}

const SNIFF_BYTES = 8192;
const CONTROL_SAMPLE = 512;
const SUMMARY_SCAN = 16 * 1024;
const SUMMARY_MAX = 160;
/** Characters of the head language detection reads: enough for a man page's licence comment. */
const LANGUAGE_HEAD = 2048;

/**
 * Classifies a file's bytes: binary (a NUL byte, or mostly non-text in the first
 * 8 KiB), its language, and a one-line summary (the first meaningful line).
 */
export function describeFile(fileName: string, bytes: Uint8Array, text?: string): FileInfo {
  // A caller that passes the decoded text has already found the bytes to be text.
  if (text === undefined && isBinary(bytes)) return { binary: true };
  const head = text?.slice(0, SUMMARY_SCAN) ??
    decodeText(bytes.subarray(0, SUMMARY_SCAN));
  const language = detectLanguage(fileName, head.slice(0, LANGUAGE_HEAD));
  const summary = summarize(head);
  const info: FileInfo = { binary: false };
  if (language !== undefined) info.language = language;
  if (summary !== undefined) info.summary = summary;
  return info;
}

/**
 * True when the first 8 KiB hold a NUL byte, or the first 512 bytes more
 * than 30% control bytes. Text behind a UTF-16 byte order mark (every other
 * byte NUL in ASCII text) is judged by its characters instead.
 */
export function isBinary(bytes: Uint8Array): boolean {
  if (utf16Bom(bytes) !== undefined) {
    const head = decodeText(bytes.subarray(0, CONTROL_SAMPLE * 2));
    let odd = 0;
    for (const ch of head) {
      const c = ch.codePointAt(0)!;
      if (c < 7 || (c > 13 && c < 32 && c !== 27)) odd++;
    }
    return head.length > 0 && odd / head.length > 0.3;
  }
  if (bytes.subarray(0, SNIFF_BYTES).indexOf(0) !== -1) return true;
  const n = Math.min(bytes.length, CONTROL_SAMPLE);
  let odd = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b < 7 || (b > 13 && b < 32 && b !== 27)) odd++;
  }
  return n > 0 && odd / n > 0.3;
}

/** A roff comment (`.\\"`, `'\\"`, `\\"`) or request (`.TH`, `.SH NAME`, `.PP`): markup, never a summary. */
const ROFF = /^(?:[.']?\\"|[.'][A-Za-z]{1,2}(?:\s|$))/;

const BOILERPLATE =
  /^(copyright|\(c\)|©|license|licensed under|spdx-license-identifier|all rights reserved|@license|-\*-|vim:|eslint-|prettier-|@ts-|use strict|#!|<\?php|package |import |from \S+ import|#include|using |require\(|---$)/i;

/**
 * The first line that says something: comment markers stripped (and a
 * heading's marks: `# Title #`, `= Title`, Org's `#+TITLE:`), blank lines,
 * punctuation-only lines, roff comments and requests (`.\\"`, `.TH`),
 * shebangs, licence headers and imports skipped. A lone carriage return
 * ends a line too: no summary holds one.
 */
export function summarize(text: string): string | undefined {
  let fallback: string | undefined;
  let start = 0;
  for (let n = 0; n < 400 && start < text.length; n++) {
    const lf = text.indexOf("\n", start);
    const cr = text.indexOf("\r", start);
    // A line ends at `\n`, `\r\n` or a lone `\r` (an old Mac file).
    const end = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf;
    const raw = text.slice(start, end === -1 ? text.length : end);
    start = end === -1 ? text.length : end + (text.startsWith("\r\n", end) ? 2 : 1);
    if (ROFF.test(raw)) continue;
    const line = raw
      .trim()
      .replace(
        /^(\/\/+!?|\/\*+!?|\*+\/?|#\+\w+:|#+!?|--+|;+|%+|"""|'''|<!--|=begin|={1,6}(?=\s))\s*/,
        "",
      )
      .replace(/(\*\/|-->|"""|''')\s*$/, "")
      .replace(
        /^(.*\S)\s+#+$/,
        (all, title: string) => raw.trimStart().startsWith("#") ? title : all,
      )
      .trim();
    if (line.length < 3 || !/[\p{L}\p{N}]/u.test(line)) continue;
    if (BOILERPLATE.test(line) || BOILERPLATE.test(raw.trim())) {
      fallback ??= line;
      continue;
    }
    return clip(line);
  }
  return fallback === undefined ? undefined : clip(fallback);
}

function clip(line: string): string {
  return line.length <= SUMMARY_MAX ? line : line.slice(0, SUMMARY_MAX - 1) + "…";
}
