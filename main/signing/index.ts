export {
  DEFAULT_SIGNATURE_VARIANT,
  HMAC_ALGORITHM_PREFIX,
  SIGNATURE_ALGORITHM,
  SIGNATURE_VARIANTS,
  SIGNED_HEADERS,
  isSignatureVariant,
  type SignatureVariant,
} from './scheme';
export { hostOf } from './host';
export { formatHttpDate, parseHttpDate } from './http-date';
export { CLOCK_WINDOW_SECONDS, clockSkewSeconds, withinWindow } from './clock';
export { buildStringToSign, requestTarget, stringToSignLines, upperMethod, type StringToSignParts } from './string-to-sign';
export { authorizationHeader, parseAuthorization, type ParseAuthorizationResult, type ParsedAuthorization } from './authorization';
export { clearSigningKeyCache, signParts, signRequest, type SignInput, type SignSteps } from './sign';
export { verifyRequest, type VerifyInput, type VerifyReason, type VerifyResult } from './verify';
export { SIGNATURE_FAILURE_MESSAGE, SIGNATURE_FAILURE_STATUS, isSignatureFailureReply, signatureFailureBody } from './signature-failure';
export {
  MAX_CAPTURED_LENGTH,
  capturedSignatureInput,
  parseCapturedRequest,
  type CapturedDefaults,
  type CapturedFormat,
  type CapturedParseError,
  type CapturedRequest,
  type ParseCapturedResult,
} from './request-parse';
export {
  diagnoseSignature,
  type CauseConfidence,
  type DiagnoseInput,
  type DiagnosedPart,
  type Diagnosis,
  type DiagnosisCause,
  type DiagnosisPart,
  type InferredChange,
  type LikelyCause,
  type PartStatus,
  type VariantComputation,
} from './diagnose';
export {
  MAX_VECTORS,
  PROFILE_KEY_REF_PREFIX,
  VECTOR_FILE_FORMAT,
  VECTOR_FILE_VERSION,
  checkVectors,
  exportVector,
  parseVectorFile,
  serializeVectorFile,
  vectorKeyRefs,
  type ParseVectorFileResult,
  type SignatureVector,
  type SignatureVectorExpected,
  type SignatureVectorFile,
  type SignatureVectorInput,
  type VectorCheck,
  type VectorField,
  type VectorFileError,
  type VectorKeySource,
} from './vectors';
