/**
 * Pixel dimensions from an image's header (PNG, JPEG, GIF, WebP, BMP), and the input tokens an
 * image of that size costs. The dry run and the budget estimate images by their pixels, not by a
 * flat allowance: a 200 MB image counted as 1,280 tokens hid a 280 MB request. Pure.
 */

/** Width and height in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

const positive = (size: ImageSize): ImageSize | null =>
  size.width > 0 && size.height > 0 ? size : null;

function jpegSize(data: Uint8Array): ImageSize | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let offset = 2;
  while (offset + 9 < data.length) {
    if (data[offset] !== 0xff) return null;
    const marker = data[offset + 1]!;
    if (
      marker === 0xd8 ||
      (marker >= 0xd0 && marker <= 0xd7) ||
      marker === 0x01 ||
      marker === 0xff
    ) {
      offset += marker === 0xff ? 1 : 2;
      continue;
    }
    const length = view.getUint16(offset + 2);
    // Start-of-frame markers (not DHT C4, JPG C8, DAC CC) carry height then width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return positive({ height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) });
    offset += 2 + length;
  }
  return null;
}

function webpSize(data: Uint8Array, view: DataView): ImageSize | null {
  const chunk = String.fromCharCode(...data.subarray(12, 16));
  if (chunk === 'VP8X' && data.length >= 30)
    return positive({
      width: 1 + (data[24]! | (data[25]! << 8) | (data[26]! << 16)),
      height: 1 + (data[27]! | (data[28]! << 8) | (data[29]! << 16)),
    });
  if (chunk === 'VP8 ' && data.length >= 30)
    return positive({
      width: view.getUint16(26, true) & 0x3fff,
      height: view.getUint16(28, true) & 0x3fff,
    });
  if (chunk === 'VP8L' && data.length >= 25) {
    const bits = view.getUint32(21, true);
    return positive({ width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) });
  }
  return null;
}

/** The dimensions an image's header states, or null when the bytes are not a known image (or too short). */
export function imageSize(data: Uint8Array): ImageSize | null {
  if (data.length < 16) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const starts = (...bytes: number[]) => bytes.every((byte, index) => data[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47) && data.length >= 24)
    return positive({ width: view.getUint32(16), height: view.getUint32(20) });
  if (starts(0x47, 0x49, 0x46, 0x38))
    return positive({ width: view.getUint16(6, true), height: view.getUint16(8, true) });
  if (starts(0x42, 0x4d) && data.length >= 26)
    return positive({
      width: Math.abs(view.getInt32(18, true)),
      height: Math.abs(view.getInt32(22, true)),
    });
  if (starts(0xff, 0xd8, 0xff)) return jpegSize(data);
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...data.subarray(8, 12)) === 'WEBP')
    return webpSize(data, view);
  return null;
}

/** OpenAI, high detail: fit in 2048², shortest side to 768, then 170 per 512-px tile plus 85. */
function openAiTokens({ width, height }: ImageSize): number {
  const fit = Math.min(1, 2048 / Math.max(width, height));
  const shrink = Math.min(1, 768 / Math.min(width * fit, height * fit));
  return (
    85 + 170 * Math.ceil((width * fit * shrink) / 512) * Math.ceil((height * fit * shrink) / 512)
  );
}

/** Anthropic: pixels / 750 after resizing to a 1,568-px long edge and at most ~1.15 megapixels. */
function anthropicTokens({ width, height }: ImageSize): number {
  const edge = Math.min(1, 1568 / Math.max(width, height));
  const area = Math.min(1, Math.sqrt(1_150_000 / (width * height * edge * edge)));
  return Math.ceil((width * height * edge * edge * area * area) / 750);
}

/** Gemini: 258 for an image within 384², else 258 per 768-px tile. */
function geminiTokens({ width, height }: ImageSize): number {
  return width <= 384 && height <= 384
    ? 258
    : 258 * Math.ceil(width / 768) * Math.ceil(height / 768);
}

/**
 * Input tokens of an image of `size`: the most any of the three vendors' published formulas gives
 * (an estimate for budgets, never billing).
 */
export function imageTokens(size: ImageSize): number {
  return Math.max(openAiTokens(size), anthropicTokens(size), geminiTokens(size));
}
