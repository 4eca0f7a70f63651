/**
 * The distance ToolSandbox's `calculate_lat_lon_distance` returns: geopy's `distance` (the
 * geodesic on the WGS-84 ellipsoid, by geographiclib) in kilometres. geographiclib is not
 * available here; this is Vincenty's inverse formula on the same ellipsoid, which agrees with the
 * geodesic to well under a millimetre (it iterates to 1e-12 rad), not to the last bit. For nearly
 * antipodal points, where Vincenty does not converge, it falls back to the last iterate.
 */

const A = 6378137.0; // WGS-84 semi-major axis (m)
const F = 1 / 298.257223563; // flattening
const B = A * (1 - F);

const rad = (deg: number) => (deg * Math.PI) / 180;

/** Geodesic distance in km between two points given in degrees. */
export function geodesicKilometers(lat0: number, lon0: number, lat1: number, lon1: number): number {
  const L = rad(lon1 - lon0);
  const U1 = Math.atan((1 - F) * Math.tan(rad(lat0)));
  const U2 = Math.atan((1 - F) * Math.tan(rad(lat1)));
  const [sinU1, cosU1, sinU2, cosU2] = [Math.sin(U1), Math.cos(U1), Math.sin(U2), Math.cos(U2)];
  let lambda = L;
  let sigma = 0;
  let sinSigma = 0;
  let cosSigma = 1;
  let cos2Alpha = 1;
  let cos2SigmaM = 0;
  for (let i = 0; i < 200; i++) {
    const sinLambda = Math.sin(lambda);
    const cosLambda = Math.cos(lambda);
    sinSigma = Math.hypot(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda);
    if (sinSigma === 0) return 0;
    cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda;
    sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinLambda) / sinSigma;
    cos2Alpha = 1 - sinAlpha * sinAlpha;
    cos2SigmaM = cos2Alpha === 0 ? 0 : cosSigma - (2 * sinU1 * sinU2) / cos2Alpha;
    const C = (F / 16) * cos2Alpha * (4 + F * (4 - 3 * cos2Alpha));
    const previous = lambda;
    lambda =
      L +
      (1 - C) *
        F *
        sinAlpha *
        (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM ** 2)));
    if (Math.abs(lambda - previous) < 1e-12) break;
  }
  const u2 = (cos2Alpha * (A * A - B * B)) / (B * B);
  const bigA = 1 + (u2 / 16384) * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
  const bigB = (u2 / 1024) * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
  const deltaSigma =
    bigB *
    sinSigma *
    (cos2SigmaM +
      (bigB / 4) *
        (cosSigma * (-1 + 2 * cos2SigmaM ** 2) -
          (bigB / 6) * cos2SigmaM * (-3 + 4 * sinSigma ** 2) * (-3 + 4 * cos2SigmaM ** 2)));
  return (B * bigA * (sigma - deltaSigma)) / 1000;
}
