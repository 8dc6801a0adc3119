/** Test-only: checks a VAPID `Authorization` header (RFC 8292) the way a push service does. */
import { createPublicKey, verify } from 'node:crypto';

interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
  [claim: string]: unknown;
}

export interface VerifiedVapid {
  header: Record<string, unknown>;
  claims: VapidClaims;
  /** The `k=` key, base64url. */
  publicKey: string;
}

/** Parses `vapid t=<jwt>, k=<key>` and verifies the ES256 signature with `k`; throws on any mismatch. */
export function verifyVapidAuthorization(authorization: string | undefined): VerifiedVapid {
  const match = /^vapid\s+t=([A-Za-z0-9_.-]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a vapid Authorization header: ${authorization}`);
  const [, jwt, k] = match as unknown as [string, string, string];
  const [headerB64, claimsB64, signatureB64] = jwt.split('.');
  if (!headerB64 || !claimsB64 || !signatureB64) throw new Error('JWT must have three parts');
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const signature = Buffer.from(signatureB64, 'base64url');
  // JWS ES256 signatures are raw r||s (64 bytes), not DER.
  const valid = verify(
    'sha256',
    Buffer.from(`${headerB64}.${claimsB64}`),
    { key, dsaEncoding: 'ieee-p1363' },
    signature,
  );
  if (!valid) throw new Error('VAPID JWT signature does not verify with k');
  const header = JSON.parse(Buffer.from(headerB64, 'base64url').toString('utf8')) as Record<string, unknown>;
  const claims = JSON.parse(Buffer.from(claimsB64, 'base64url').toString('utf8')) as VapidClaims;
  return { header, claims, publicKey: k };
}
