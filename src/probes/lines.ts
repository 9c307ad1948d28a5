// A connection's bytes as lines (CR LF or LF), for the probes that read a text protocol: SSH, SMTP, IMAP, POP3.

/** Cuts what arrives into lines, keeping the unfinished one until its end comes. */
export class LineBuffer {
  private pending = Buffer.alloc(0);

  constructor(private readonly encoding: BufferEncoding) {}

  /** The lines `chunk` completes, without their CR LF or LF. */
  push(chunk: Buffer): string[] {
    this.pending = Buffer.concat([this.pending, chunk]);
    const lines: string[] = [];
    for (let end = this.pending.indexOf(0x0a); end >= 0; end = this.pending.indexOf(0x0a)) {
      lines.push(this.pending.subarray(0, end).toString(this.encoding).replace(/\r$/, ''));
      this.pending = this.pending.subarray(end + 1);
    }
    return lines;
  }

  /** Bytes of the line not yet ended. */
  get unfinished(): number {
    return this.pending.length;
  }
}
