/**
 * ToolSandbox's `validate_phone_number`: `phonenumbers.parse(number)` with no default region, so
 * only an international number (a leading `+` and a known country calling code) parses. This is
 * a port of the checks that parse makes before it consults per-region metadata: the raw length,
 * a number-like start, viability, the country code, and the national number's length.
 */
import { pyTypeName, ToolException } from './toolbox.js';

const EXCEPTION = 'phonenumbers.phonenumberutil.NumberParseException';

// Country calling codes phonenumbers knows (its COUNTRY_CODE_TO_REGION_CODE keys).
const COUNTRY_CODES = new Set(
  (
    '1 7 20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 60 61 62 ' +
    '63 64 65 66 81 82 84 86 90 91 92 93 94 95 98 211 212 213 216 218 220 221 222 223 224 225 ' +
    '226 227 228 229 230 231 232 233 234 235 236 237 238 239 240 241 242 243 244 245 246 247 ' +
    '248 249 250 251 252 253 254 255 256 257 258 260 261 262 263 264 265 266 267 268 269 290 ' +
    '291 297 298 299 350 351 352 353 354 355 356 357 358 359 370 371 372 373 374 375 376 377 ' +
    '378 379 380 381 382 383 385 386 387 389 420 421 423 500 501 502 503 504 505 506 507 508 ' +
    '509 590 591 592 593 594 595 596 597 598 599 670 672 673 674 675 676 677 678 679 680 681 ' +
    '682 683 685 686 687 688 689 690 691 692 800 808 850 852 853 855 856 870 878 880 881 882 ' +
    '883 886 888 960 961 962 963 964 965 966 967 968 970 971 972 973 974 975 976 977 979 992 ' +
    '993 994 995 996 998'
  ).split(' '),
);

function fail(code: number, message: string): never {
  throw new ToolException(EXCEPTION, `(${code}) ${message}`);
}

const PUNCTUATION = String.raw`\-x‐-―−ー－-／  ­​⁠　()（）［］.\[\]/~⁓∼～`;
const VIABLE = new RegExp(
  String.raw`^(?:\p{Nd}{2}|[+＋]*(?:[${PUNCTUATION}*]*\p{Nd}){3,}[${PUNCTUATION}*\p{L}\p{Nd}]*)$`,
  'u',
);

function digitsOf(text: string): string {
  return [...text]
    .filter((ch) => /\p{Nd}/u.test(ch))
    .map((ch) => String(digitValue(ch)))
    .join('');
}

function digitValue(ch: string): number {
  // a decimal digit of another script: its offset from that script's zero
  const code = ch.codePointAt(0)!;
  for (let zero = code; zero > code - 10; zero--)
    if (!/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) return code - zero;
  return 0;
}

/** Throws NumberParseException's text where phonenumbers.parse(number) raises. */
export function validatePhoneNumber(number: unknown): void {
  if (number === undefined) return;
  if (number === null) fail(1, 'The phone number supplied was None.');
  if (typeof number !== 'string')
    throw new ToolException(
      'TypeError',
      `object of type '${pyTypeName(number).slice(8, -2)}' has no len()`,
    );
  if ([...number].length > 250) fail(4, 'The string supplied was too long to parse.');
  const start = number.search(/[+＋\p{Nd}]/u);
  if (start < 0) fail(1, 'The string supplied did not seem to be a phone number.');
  // trailing characters that cannot end a number are dropped
  const candidate = number.slice(start).replace(/[^\p{N}\p{L}#]+$/u, '');
  if (!VIABLE.test(candidate)) fail(1, 'The string supplied did not seem to be a phone number.');
  if (!/^[+＋]/u.test(candidate)) fail(0, 'Missing or invalid default region.');
  const digits = digitsOf(candidate.replace(/^[+＋]+/u, ''));
  if (digits.length <= 2)
    fail(
      2,
      'Phone number had an IDD, but after this was not long enough to be a viable phone number.',
    );
  let code = '';
  if (!digits.startsWith('0'))
    for (let length = 1; length <= 3 && length <= digits.length; length++)
      if (COUNTRY_CODES.has(digits.slice(0, length))) {
        code = digits.slice(0, length);
        break;
      }
  if (code === '') fail(0, 'Country calling code supplied was not recognised.');
  const national = digits.slice(code.length);
  if (national.length < 2) fail(3, 'The string supplied is too short to be a phone number.');
  if (national.length > 17) fail(4, 'The string supplied is too long to be a phone number.');
}
