import { describe, expect, it } from 'vitest';
import { buildContent } from './content-builder.ts';

const url = 'https://media.example/files/report%20Q3.xlsx';

describe('buildContent', () => {
  it('text and buttons carry their text', () => {
    expect(buildContent('text', { text: 'hi', caption: 'ignored' })).toEqual({ kind: 'text', text: 'hi' });
    const buttons = [{ id: 'y', title: 'Yes' }];
    expect(buildContent('buttons', { text: 'Pick', buttons, mediaUrl: url })).toEqual({
      kind: 'buttons',
      text: 'Pick',
      buttons,
      mediaUrl: url,
    });
  });

  it('image and video keep the caption; audio has none', () => {
    expect(buildContent('image', { mediaUrl: url, caption: 'c' })).toEqual({
      kind: 'image',
      mediaUrl: url,
      caption: 'c',
    });
    expect(buildContent('audio', { mediaUrl: url, caption: 'c', mimetype: 'audio/mpeg' })).toEqual({
      kind: 'audio',
      mediaUrl: url,
      mimetype: 'audio/mpeg',
    });
  });

  it('a voice note lasts 5 s unless told', () => {
    expect(buildContent('voice', { mediaUrl: url })).toMatchObject({ kind: 'voice', durationSeconds: 5 });
    expect(buildContent('voice', { mediaUrl: url, durationSeconds: 12 }).durationSeconds).toBe(12);
  });

  it('a PDF is a document of application/pdf, named as given, else by its URL, else document.pdf', () => {
    expect(buildContent('pdf', { mediaUrl: 'https://x.test/a/invoice.pdf', caption: 'c' })).toEqual({
      kind: 'document',
      mediaUrl: 'https://x.test/a/invoice.pdf',
      caption: 'c',
      fileName: 'invoice.pdf',
      mimetype: 'application/pdf',
    });
    expect(buildContent('pdf', { mediaUrl: 'https://x.test/get?id=7' }).fileName).toBe('document.pdf');
    expect(buildContent('pdf', { mediaUrl: 'https://x.test/a/x.pdf', fileName: 'mine.pdf' }).fileName).toBe(
      'mine.pdf',
    );
  });

  it('a document is named as given, else by its URL, else document; its type from the bytes, else the name', () => {
    expect(buildContent('document', { mediaUrl: url })).toMatchObject({
      kind: 'document',
      fileName: 'report Q3.xlsx',
      mimetype: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    const unnamed = buildContent('document', { mediaUrl: 'https://x.test/download' });
    expect(unnamed).toMatchObject({ fileName: 'document' });
    expect(unnamed.mimetype).toBeUndefined();
    expect(
      buildContent('document', { mediaUrl: url, mimetype: 'application/zip', fileName: 'a.csv' }),
    ).toMatchObject({ fileName: 'a.csv', mimetype: 'application/zip' });
  });

  it('an upload keeps its S3 key and detected type', () => {
    expect(
      buildContent('pdf', {
        mediaUrl: 'https://s3.test/b/uploads/t/3EB0',
        mimetype: 'application/pdf',
        uploadKey: 'uploads/t/3EB0',
      }),
    ).toEqual({
      kind: 'document',
      mediaUrl: 'https://s3.test/b/uploads/t/3EB0',
      mimetype: 'application/pdf',
      uploadKey: 'uploads/t/3EB0',
      caption: undefined,
      fileName: 'document.pdf',
    });
  });

  it('a sticker is media without a caption; a list keeps its body as text and the list itself', () => {
    expect(buildContent('sticker', { mediaUrl: 'https://x.test/s.png', caption: 'dropped' })).toEqual({
      kind: 'sticker',
      mediaUrl: 'https://x.test/s.png',
    });
    const list = { body: 'Pick', button: 'Open', sections: [{ rows: [{ id: 'a', title: 'A' }] }] };
    expect(buildContent('list', { list })).toEqual({ kind: 'list', text: 'Pick', list });
  });
});
