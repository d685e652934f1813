import { handle } from 'hono/aws-lambda';
import { createApp } from '#shared/http/app';

/** API Gateway (HTTP API) → the one Hono application. */
export const handler = handle(createApp());
