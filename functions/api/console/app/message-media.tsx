import { useEffect, useState } from 'preact/hooks';
import { messageOf, request, type ViewMessage } from './api.ts';
import { ErrorText } from './ui.tsx';

/** What a kind of media is called on its link. */
const KIND_LABEL: Record<string, string> = {
  image: 'Image',
  video: 'Video',
  audio: 'Audio',
  voice: 'Voice note',
  document: 'Document',
  pdf: 'Document',
  sticker: 'Sticker',
};

const isImage = (m: ViewMessage) => m.mimetype?.startsWith('image/') ?? m.type === 'image';

/**
 * A message's media: an image inline (its bytes fetched with the token from
 * GET /api/sessions/{id}/messages/{messageId}/media, shown from memory: the page loads nothing from another origin),
 * anything else as a labelled link; then what the analysers read in it (transcription, OCR text).
 */
export function MessageMedia({ message: m }: { message: ViewMessage }) {
  const label = `${KIND_LABEL[m.type] ?? 'File'}${m.fileName ? ` ${m.fileName}` : ''}`;
  return (
    <div class="media">
      {m.mediaUrl && isImage(m) ? (
        <InlineImage message={m} label={label} />
      ) : m.mediaUrl ? (
        <a href={m.mediaUrl} target="_blank" rel="noopener noreferrer">
          {label}
          {m.mimetype && <small class="muted"> ({m.mimetype})</small>}
        </a>
      ) : (
        // A file whose bytes are not kept (a reply's upload is deleted once sent): its name only.
        <span class="muted">📎 {label}</span>
      )}
      {m.transcription && (
        <p class="analysis">
          <strong>Transcription:</strong> {m.transcription}
        </p>
      )}
      {m.ocrText && (
        <p class="analysis">
          <strong>Text in it:</strong> {m.ocrText}
        </p>
      )}
    </div>
  );
}

function InlineImage({ message: m, label }: { message: ViewMessage; label: string }) {
  const [src, setSrc] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let url: string | undefined;
    let stopped = false;
    const path = `/api/sessions/${encodeURIComponent(m.sessionId)}/messages/${encodeURIComponent(m.id)}/media`;
    request('GET', path)
      .then((res) => res.blob())
      .then((blob) => {
        if (stopped) return;
        url = URL.createObjectURL(blob);
        setSrc(url);
      })
      .catch((err) => !stopped && setError(messageOf(err)));
    return () => {
      stopped = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [m.id, m.sessionId]);
  if (src) return <img class="preview-image" src={src} alt={label} />;
  return (
    <>
      {m.mediaUrl && (
        <a href={m.mediaUrl} target="_blank" rel="noopener noreferrer">
          {label}
        </a>
      )}
      <ErrorText error={error} />
    </>
  );
}
