/**
 * Message shapes more than one e2e file sends or expects, written once: the media block of a
 * presented message without media (history's formatted view and the stream show the same), and
 * the list of delivery days the list-message tests send (by our API and by the Cloud API) and find.
 */

/** `media` of a presented text message. */
export const NO_MEDIA = {
  hasMedia: false,
  mediaType: null,
  mediaUrl: null,
  stt_transcription: null,
  confidence: null,
  ocr_text: null,
};

/** The sections of the delivery-day list: two rows this week (one with a description), one later. */
export const DELIVERY_DAY_SECTIONS = [
  {
    title: 'This week',
    rows: [
      { id: 'day-mon', title: 'Monday', description: 'after 5 pm' },
      { id: 'day-tue', title: 'Tuesday' },
    ],
  },
  { title: 'Later', rows: [{ id: 'day-next', title: 'Next week' }] },
];
