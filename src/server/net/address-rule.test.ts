import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedAddressesOf, effectiveAddress, filteringAgents, checkHost, isAllowedAddress, NOT_ALLOWED_MESSAGE } from './address-rule.ts';

/*
 * The address rule every outgoing connection on a user's behalf obeys. IPv6 can spell an IPv4
 * address in several ways; each must be judged as the IPv4 address it reaches.
 */

/** 127.0.0.1, 10.0.0.5 and 169.254.169.254 in every IPv6 spelling that carries an IPv4 address. */
const DISGUISED = [
  // IPv4-mapped
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '[::ffff:127.0.0.1]',
  '0:0:0:0:0:ffff:7f00:0001',
  '::ffff:10.0.0.5',
  '::ffff:a9fe:a9fe',
  // IPv4-compatible
  '::127.0.0.1',
  '::7f00:1',
  '[::7f00:1]',
  '::10.0.0.5',
  '::169.254.169.254',
  '::a9fe:a9fe',
  // NAT64 (64:ff9b::/96)
  '64:ff9b::127.0.0.1',
  '64:ff9b::7f00:1',
  '64:ff9b::10.0.0.5',
  '64:ff9b::a9fe:a9fe',
];

describe('isAllowedAddress', () => {
  it('refuses private, loopback, link-local, metadata and unspecified addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.5',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      'ff02::1',
    ]) {
      expect(isAllowedAddress(address, []), address).toBe(false);
    }
  });

  it('refuses every IPv6 form of a private IPv4 address', () => {
    for (const address of DISGUISED) expect(isAllowedAddress(address, []), address).toBe(false);
  });

  it('reads each form as the IPv4 address it carries', () => {
    expect(effectiveAddress('::ffff:7f00:1')?.toString()).toBe('127.0.0.1');
    expect(effectiveAddress('::7f00:1')?.toString()).toBe('127.0.0.1');
    expect(effectiveAddress('::127.0.0.1')?.toString()).toBe('127.0.0.1');
    expect(effectiveAddress('64:ff9b::7f00:1')?.toString()).toBe('127.0.0.1');
    expect(effectiveAddress('::1')?.kind()).toBe('ipv6');
    expect(effectiveAddress('not an address')).toBeUndefined();
  });

  it('allows public addresses, in IPv4 or carried in IPv6', () => {
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34', '64:ff9b::93.184.216.34']) {
      expect(isAllowedAddress(address, []), address).toBe(true);
    }
  });

  it('allows what the operator lists, whichever way it is written', () => {
    expect(isAllowedAddress('10.0.0.5', ['10.0.0.0/8'])).toBe(true);
    expect(isAllowedAddress('::ffff:10.0.0.5', ['10.0.0.0/8'])).toBe(true);
    expect(isAllowedAddress('127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(isAllowedAddress('::ffff:127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(isAllowedAddress('127.0.0.2', ['127.0.0.1'])).toBe(false);
    expect(isAllowedAddress('10.0.0.5', ['not-a-range'])).toBe(false);
  });
});

describe('resolving a host before it is saved or used', () => {
  it('refuses literal private addresses in every form, with or without brackets', async () => {
    for (const host of ['127.0.0.1', 'localhost', ...DISGUISED]) {
      await expect(allowedAddressesOf(host, []), host).rejects.toThrow(NOT_ALLOWED_MESSAGE);
    }
    expect(await checkHost('[::ffff:127.0.0.1]', [])).toBe('not_allowed');
    expect(await checkHost('127.0.0.1', ['127.0.0.1'])).toBe('ok');
    expect(await checkHost('93.184.216.34', [])).toBe('ok');
  });

  it('says a name that does not resolve cannot be found', async () => {
    expect(await checkHost('no-such-host.invalid', [])).toBe('not_found');
  });
});

describe('the filtering agents', () => {
  let server: http.Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = http.createServer((_request, response) => {
      hits++;
      response.end('inside');
    });
    // Listening on every address, so both the IPv4 and the IPv6 spellings would reach it.
    await new Promise<void>((resolve) => server.listen(0, '::', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (url: string, allowIps: string[]) =>
    new Promise<{ status?: number; error?: string }>((resolve) => {
      const request = http.get(url, { agent: filteringAgents(allowIps).http }, (response) => {
        response.resume();
        resolve({ status: response.statusCode });
      });
      request.on('error', (error) => resolve({ error: error.message }));
    });

  it('never connects to a refused address, however it is written', async () => {
    for (const host of ['127.0.0.1', '[::1]', 'localhost', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::127.0.0.1]', '[::7f00:1]', '[64:ff9b::7f00:1]']) {
      expect(await get(`http://${host}:${port}/`, []), host).toEqual({ error: NOT_ALLOWED_MESSAGE });
    }
    expect(hits).toBe(0);
  });

  it('connects to what the operator allows', async () => {
    expect(await get(`http://127.0.0.1:${port}/`, ['127.0.0.1'])).toEqual({ status: 200 });
    expect(hits).toBe(1);
  });
});
