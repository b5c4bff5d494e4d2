import { join } from 'node:path';
import { readJsonFile, writeJsonFileAtomic } from './json-file';
import { passphraseEncryptor } from './passphrase-encryptor';

/** Stored secrets (SEC-02, STU-07): values go in, never come back out to a caller (only to the engine). */
export interface SecretStore {
  /** False when values cannot be encrypted here (no OS keychain): the studio then offers environment secrets only. */
  readonly writable: boolean;
  names(): string[];
  get(name: string): string | undefined;
  set(name: string, value: string): void;
  delete(name: string): boolean;
}

/** The part of Electron's `safeStorage` the store uses (main/electron supplies the real one). */
export interface StringEncryptor {
  isEncryptionAvailable(): boolean;
  encryptString(text: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** No stored secrets (serve mode, tests): secrets come from `YUKTA_SECRET_<NAME>` only. */
export const NO_SECRET_STORE: SecretStore = {
  writable: false,
  names: () => [],
  get: () => undefined,
  set: () => {
    throw new Error('no secret store');
  },
  delete: () => false,
};

export const SECRETS_FILE = 'secrets.json';

interface SecretsFile {
  version: 1;
  /** name → base64 of the value encrypted by the OS keychain (safeStorage). */
  secrets: Record<string, string>;
}

/**
 * Secrets encrypted with the OS keychain (Electron `safeStorage`) in `<data>/secrets.json` (mode 0600).
 * Only ciphertext is on disk; a value is decrypted when a node needs it.
 */
export class EncryptedSecretStore implements SecretStore {
  private readonly file: string;
  private secrets: Record<string, string>;

  constructor(
    dataDir: string,
    private readonly encryptor: StringEncryptor,
  ) {
    this.file = join(dataDir, SECRETS_FILE);
    const stored = readJsonFile(this.file) as Partial<SecretsFile> | null;
    this.secrets = stored && stored.secrets && typeof stored.secrets === 'object' ? { ...stored.secrets } : {};
  }

  get writable(): boolean {
    return this.encryptor.isEncryptionAvailable();
  }

  names(): string[] {
    return Object.keys(this.secrets).sort();
  }

  get(name: string): string | undefined {
    const encrypted = Object.prototype.hasOwnProperty.call(this.secrets, name) ? this.secrets[name] : undefined;
    if (encrypted === undefined || !this.encryptor.isEncryptionAvailable()) return undefined;
    return this.encryptor.decryptString(Buffer.from(encrypted, 'base64'));
  }

  set(name: string, value: string): void {
    if (!this.writable) throw new Error('the OS keychain is not available, so secrets cannot be stored encrypted');
    this.secrets = { ...this.secrets, [name]: this.encryptor.encryptString(value).toString('base64') };
    this.save();
  }

  delete(name: string): boolean {
    if (!Object.prototype.hasOwnProperty.call(this.secrets, name)) return false;
    const { [name]: _gone, ...rest } = this.secrets;
    this.secrets = rest;
    this.save();
    return true;
  }

  private save(): void {
    const content: SecretsFile = { version: 1, secrets: this.secrets };
    writeJsonFileAtomic(this.file, content);
  }
}

/**
 * The store of a host without the OS keychain (serve, `yukta mcp`): sealed under `yukta.secrets.key` when it
 * is set and there is a data folder; otherwise none, and secrets come from the environment only.
 */
export function keyedSecretStore(dataDir: string | null, key: string | undefined): SecretStore {
  return dataDir && key ? new EncryptedSecretStore(dataDir, passphraseEncryptor(key)) : NO_SECRET_STORE;
}
