// The capture slice of the handler table: the proxy that records a backend's requests to the provider.
import type { captureOps } from '../../common/contract/capture';
import type { Ops } from '../ops';
import type { CaptureService } from './capture-service';

export function captureOpsOf(capture: CaptureService): Ops<typeof captureOps> {
  return {
    'capture.start': async (input) => capture.start(input),
    'capture.stop': async () => capture.stop(),
    'capture.status': async () => capture.status(),
  };
}
