import { GetQueueUrlCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from './clients.ts';

const cache = new Map<string, Promise<string>>();

/** Queue URL by name, looked up once per process. */
export function queueUrl(name: string): Promise<string> {
  let url = cache.get(name);
  if (!url) {
    url = sqsClient()
      .send(new GetQueueUrlCommand({ QueueName: name }))
      .then((r) => {
        if (!r.QueueUrl) throw new Error(`queue ${name} has no URL`);
        return r.QueueUrl;
      });
    url.catch(() => cache.delete(name));
    cache.set(name, url);
  }
  return url;
}
