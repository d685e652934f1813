import { phoneNumberInput } from '#shared/phone/schema';

/** A send's recipient → digits with country code. Group chats are not a send target here. */
export const Recipient = phoneNumberInput();
