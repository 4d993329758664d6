// A raw POST over node:http with no connection pooling (agent: false), answering its status code:
// what a backend sends to the capture proxy, byte for byte, without fetch's own headers.
import { request } from 'node:http';

export function rawPost(port: number, path: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, headers: { 'Content-Type': 'application/json', ...headers }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(body);
  });
}
