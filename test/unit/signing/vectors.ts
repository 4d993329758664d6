import type { SignatureVariant } from '../../../main/signing';

/**
 * Known vectors. The string to sign is written out by hand and the signature was computed with
 * `printf '%s' "$STS" | openssl dgst -sha256 -hmac "$KEY" -binary | base64`; vectors.test.ts
 * re-runs openssl on every run, so these literals cannot drift from an independent computation.
 */
export interface Vector {
  name: string;
  apiId: string;
  apiKey: string;
  method: string;
  url: string;
  host: string;
  path: string;
  query: string;
  date: string;
  variant: SignatureVariant;
  stringToSign: string;
  signature: string;
}

export const DATE = 'Sat, 21 Nov 2026 22:36:54 GMT';

export const VECTORS: Vector[] = [
  {
    name: 'spec, POST, https with explicit default port 443',
    apiId: 'C80604386',
    apiKey: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6',
    method: 'POST',
    url: 'https://api.example.com:443/voice/vm',
    host: 'api.example.com',
    path: '/voice/vm',
    query: '',
    date: DATE,
    variant: 'spec',
    stringToSign: 'C80604386\nPOST /voice/vm\ndate: Sat, 21 Nov 2026 22:36:54 GMT\nhost: api.example.com',
    signature: 'FnAzSH22amuCBtpi7GgRFa3u+woPfwrWGJNn17FV9Is=',
  },
  {
    name: 'apisix, GET with query, http on non-default port 8080',
    apiId: 'C80604386',
    apiKey: 'gw-secret-0001',
    method: 'GET',
    url: 'http://gateway.example.cn:8080/voice/status?smsid=16330654361&format=json',
    host: 'gateway.example.cn:8080',
    path: '/voice/status',
    query: 'smsid=16330654361&format=json',
    date: DATE,
    variant: 'apisix',
    stringToSign: 'C80604386\nGET /voice/status?smsid=16330654361&format=json\ndate: Sat, 21 Nov 2026 22:36:54 GMT\nhost: gateway.example.cn:8080\n',
    signature: 'YuwkokdNsWA3eO5Rm2/+lxRJSAcyZpzP2czn2VbpgCg=',
  },
  {
    name: 'spec, GET, Chinese API ID and non-ASCII key, query and fragment dropped',
    apiId: '测试账号',
    apiKey: '密钥🔑-Key',
    method: 'GET',
    url: 'https://api.example.com/voice/balance?format=json#top',
    host: 'api.example.com',
    path: '/voice/balance',
    query: 'format=json',
    date: DATE,
    variant: 'spec',
    stringToSign: '测试账号\nGET /voice/balance\ndate: Sat, 21 Nov 2026 22:36:54 GMT\nhost: api.example.com',
    signature: 'EshB4H+PkcZaYHSfbPfEEJ7v7Sqjrw06Za6d81/I2ZY=',
  },
  {
    name: 'apisix, lower-case post, Chinese API ID and key, https on port 8443',
    apiId: '账号ID-张三',
    apiKey: '语音通知密钥',
    method: 'post',
    url: 'https://10.0.0.5:8443/voice/vm',
    host: '10.0.0.5:8443',
    path: '/voice/vm',
    query: '',
    date: 'Mon, 02 Feb 2026 08:00:00 GMT',
    variant: 'apisix',
    stringToSign: '账号ID-张三\nPOST /voice/vm\ndate: Mon, 02 Feb 2026 08:00:00 GMT\nhost: 10.0.0.5:8443\n',
    signature: 'nSuKqKLzXzUvV2maNl6sLs1DdE0Bg41R0qIQJEuRyfs=',
  },
  {
    name: 'spec, POST, IPv6 literal host with port',
    apiId: 'ipv6-user',
    apiKey: 'k',
    method: 'POST',
    url: 'http://[::1]:9000/voice/vm',
    host: '[::1]:9000',
    path: '/voice/vm',
    query: '',
    date: DATE,
    variant: 'spec',
    stringToSign: 'ipv6-user\nPOST /voice/vm\ndate: Sat, 21 Nov 2026 22:36:54 GMT\nhost: [::1]:9000',
    signature: 'Ky+fj5vdksCeu7llacnM/Oh3wLdlAM5AtGYe9U1RiEk=',
  },
];
