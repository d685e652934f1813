// Tokens are signed and verified in shared/: the connection host verifies them too (the extraction stream).
export { issueToken, signingKey, verifyToken } from '#shared/auth/tokens';
