// The otpauth:// URI as a QR code for an authenticator app to scan: drawn as one SVG path from uqr's module matrix.
// Loaded only while enrolling (React.lazy), so the encoder stays out of every other screen.
import { encode } from 'uqr';

/** Light modules around the code, as the QR specification asks, so scanners find its edges on a dark page too. */
const QUIET_ZONE = 4;

export default function OtpauthQr({ uri, size = 200 }: { uri: string; size?: number }) {
  const { data, size: modules } = encode(uri, { ecc: 'M', border: 0 });
  const total = modules + QUIET_ZONE * 2;
  let path = '';
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z`;
    });
  });
  return (
    <svg
      width={size}
      height={size}
      viewBox={`0 0 ${total} ${total}`}
      role="img"
      aria-label="QR code of the authenticator link: scan it with your app"
      shapeRendering="crispEdges"
    >
      <rect width={total} height={total} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
