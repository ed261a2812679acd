export { describeGatedFiles, type GatedFileEffects } from "./gatedEffects.js";
export { type GatedFile, type GatedFileKind, readGatedFiles } from "./gatedFiles.js";
export { trustFingerprint } from "./trustFingerprint.js";
export {
  grantWorkspaceTrust,
  keepTrustAcrossOwnWrite,
  revokeWorkspaceTrust,
  type TrustGrant,
  type TrustRevocation,
} from "./trustGrant.js";
export { untrustedNotice } from "./trustNotice.js";
export {
  readTrustRecord,
  type TrustedFolder,
  type TrustRecord,
  type TrustRecordRead,
  trustRecordPath,
} from "./trustRecord.js";
export {
  checkWorkspaceTrust,
  type GatedFileChange,
  projectTrusted,
  type TrustSettings,
  type TrustStatus,
  type WorkspaceTrust,
  type WorkspaceTrustInputs,
} from "./workspaceTrust.js";
