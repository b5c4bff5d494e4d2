import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import type { StringEncryptor } from './secret-store';

/** Layout of one sealed value: version byte, scrypt salt, GCM nonce, GCM tag, then the ciphertext. */
const VERSION = 1;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + SALT_BYTES + IV_BYTES + TAG_BYTES;
/** scrypt cost (OWASP's N=2^17 is for login passwords checked often; a secret is sealed once, opened once per salt). */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

/**
 * Seals secrets under an operator's key (`yukta.secrets.key`) where no OS keychain exists (serve mode, MCP
 * on a data folder): AES-256-GCM with a key derived by scrypt from the passphrase and a fresh salt per value,
 * so `secrets.json` holds only ciphertext and a copied file is useless without the key. A wrong key fails
 * GCM's authentication rather than yielding garbage.
 */
export function passphraseEncryptor(passphrase: string): StringEncryptor {
  // Derived keys by salt: deriving costs ~50 ms, and a value is opened each time a node needs it.
  const keys = new Map<string, Buffer>();
  const keyFor = (salt: Buffer): Buffer => {
    const id = salt.toString('hex');
    let key = keys.get(id);
    if (!key) keys.set(id, (key = scryptSync(passphrase, salt, 32, SCRYPT)));
    return key;
  };
  return {
    isEncryptionAvailable: () => true,
    encryptString(text) {
      const salt = randomBytes(SALT_BYTES);
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keyFor(salt), iv);
      const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), salt, iv, cipher.getAuthTag(), sealed]);
    },
    decryptString(encrypted) {
      if (encrypted.length < HEADER_BYTES || encrypted[0] !== VERSION) throw new Error('a stored secret is not in the format yukta.secrets.key seals');
      const salt = encrypted.subarray(1, 1 + SALT_BYTES);
      const iv = encrypted.subarray(1 + SALT_BYTES, 1 + SALT_BYTES + IV_BYTES);
      const tag = encrypted.subarray(1 + SALT_BYTES + IV_BYTES, HEADER_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', keyFor(salt), iv);
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(encrypted.subarray(HEADER_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new Error('a stored secret does not open with yukta.secrets.key (it was stored under another key)');
      }
    },
  };
}
