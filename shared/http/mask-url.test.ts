import { describe, expect, it } from 'vitest';
import { maskUrl, unmaskUrl } from './mask-url.ts';

describe('maskUrl', () => {
  it('masks the password and secret-looking query values, and nothing else', () => {
    expect(maskUrl('postgres://app:s3cret@db.example.com:5432/crm?sslmode=require&password=qs-secret')).toBe(
      'postgres://app:********@db.example.com:5432/crm?sslmode=require&password=********',
    );
    expect(maskUrl('https://hooks.example.com/in?token=abc123&team=7&api_key=k&sig=zz')).toBe(
      'https://hooks.example.com/in?token=********&team=7&api_key=********&sig=********',
    );
    expect(maskUrl('https://hooks.example.com/in?team=7')).toBe('https://hooks.example.com/in?team=7');
    expect(maskUrl('not a url')).toBe('********');
  });
});

describe('unmaskUrl', () => {
  const stored = 'postgres://app:s3cret@db.example.com:5432/crm?sslmode=require&password=qs-secret';

  it('gives a URL sent back as shown its stored secrets', () => {
    expect(unmaskUrl(maskUrl(stored), stored, 'f')).toBe(stored);
    const hook = 'https://hooks.example.com/in?token=abc123&team=7';
    expect(unmaskUrl('https://hooks.example.com/in?token=********&team=7', hook, 'f')).toBe(hook);
    // Another parameter changed: the masked token is not carried over (a query may name a host).
    expect(() => unmaskUrl('https://hooks.example.com/in?token=********&team=8', hook, 'f')).toThrow(
      /points somewhere new/,
    );
  });

  it('refuses masked secrets for a new host, port, user, path or parameter, or with nothing stored', () => {
    for (const moved of [
      'postgres://app:********@evil.example.com:5432/crm',
      'postgres://app:********@db.example.com:6543/crm',
      'postgres://root:********@db.example.com:5432/crm',
      'postgres://app@db.example.com:5432/other?password=********',
      'postgres://app:********@db.example.com:5432/crm?sslmode=require&password=********&host=evil.example.com',
    ]) {
      expect(() => unmaskUrl(moved, stored, 'sqltable.connectionString'), moved).toThrow(
        /points somewhere new/,
      );
    }
    expect(() => unmaskUrl('https://h.example.com/?token=********', undefined, 'webhookUrl')).toThrow(
      /masked/,
    );
  });

  it('leaves a URL without masks as it is', () => {
    expect(unmaskUrl('https://evil.example.com/?token=new', stored, 'f')).toBe(
      'https://evil.example.com/?token=new',
    );
  });
});
