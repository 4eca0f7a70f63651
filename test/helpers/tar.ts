/** Builds tar archives by hand for tests, so hostile members (traversal, links, truncation) can be included. */

/** One member: a regular file by default; `type` '5' directory, '2' symlink (with `link`). */
export interface TarMember {
  name: string;
  content?: string;
  type?: string;
  link?: string;
}

/** A ustar archive of `members`, with valid checksums and the two end-of-archive blocks. */
export function tar(members: TarMember[]): Buffer {
  const blocks: Buffer[] = [];
  for (const member of members) {
    const content = Buffer.from(member.content ?? '');
    const header = Buffer.alloc(512);
    header.write(member.name, 0, 100);
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(`${content.length.toString(8).padStart(11, '0')}\0`, 124);
    header.write('00000000000\0', 136);
    header.write(member.type ?? '0', 156);
    if (member.link) header.write(member.link, 157, 100);
    header.write('ustar\0', 257);
    header.write('00', 263);
    header.fill(' ', 148, 156);
    const sum = header.reduce((total, byte) => total + byte, 0);
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(header, content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}
