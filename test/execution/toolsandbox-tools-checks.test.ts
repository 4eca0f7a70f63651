// The parts of ToolSandbox's tools whose Python packages are not installable here, checked
// against those packages' documented behaviour: phonenumbers.parse(number) with no default
// region (validate_phone_number), and geopy's geodesic distance (calculate_lat_lon_distance).
import { describe, expect, it } from 'vitest';
import { ExecutionContext } from '../../src/execution/environments/toolsandbox/execution-context.js';
import { geodesicKilometers } from '../../src/execution/environments/toolsandbox/geodesic.js';
import { validatePhoneNumber } from '../../src/execution/environments/toolsandbox/phone-number.js';
import { ToolSandboxSession } from '../../src/execution/environments/toolsandbox/session.js';
import { TOOLS } from '../../src/execution/environments/toolsandbox/tools.js';

function parseError(number: unknown): string | null {
  try {
    validatePhoneNumber(number);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('validate_phone_number (phonenumbers.parse, no default region)', () => {
  it('accepts international numbers, with or without punctuation', () => {
    for (const number of [
      '+11233344455',
      '+1 (245) 334-4098',
      '+44 20 7946 0958',
      '+8613800138000',
    ])
      expect(parseError(number), number).toBeNull();
    expect(parseError(undefined)).toBeNull(); // NOT_GIVEN is not validated
  });

  it('rejects what phonenumbers rejects, with its error codes and texts', () => {
    expect(parseError('1233344455')).toBe('(0) Missing or invalid default region.');
    expect(parseError('+0123456789')).toBe('(0) Country calling code supplied was not recognised.');
    expect(parseError('+999 123 456')).toBe(
      '(0) Country calling code supplied was not recognised.',
    );
    expect(parseError('hello')).toBe('(1) The string supplied did not seem to be a phone number.');
    // fewer than three digits is not even a viable number
    expect(parseError('+1')).toBe('(1) The string supplied did not seem to be a phone number.');
    expect(parseError('+441')).toBe('(3) The string supplied is too short to be a phone number.');
    expect(parseError(`+1${'2'.repeat(18)}`)).toBe(
      '(4) The string supplied is too long to be a phone number.',
    );
    expect(parseError(null)).toBe('(1) The phone number supplied was None.');
  });

  it('reaches the agent as the traceback line', () => {
    const context = new ExecutionContext();
    context.addToDatabase('contact', [
      { person_id: 'me', name: 'Me', phone_number: '+11233344455', is_self: true },
    ]);
    const session = new ToolSandboxSession(context, TOOLS);
    const [result] = session.agentCalls([
      { id: 'c1', name: 'search_contacts', arguments: { phone_number: '555-0100' } },
    ]);
    expect(result!.content).toBe(
      'phonenumbers.phonenumberutil.NumberParseException: (0) Missing or invalid default region.',
    );
  });
});

describe('calculate_lat_lon_distance (geopy geodesic, WGS-84)', () => {
  it("matches geopy's and GeographicLib's published distances to a millimetre", () => {
    // geopy's README: geodesic(newport_ri, cleveland_oh).miles == 538.390445368
    const miles = geodesicKilometers(41.49008, -71.312796, 41.499498, -81.695391) / 1.609344;
    expect(Math.abs(miles - 538.390445368)).toBeLessThan(1e-6);
    // GeographicLib's documentation: JFK to LHR, s12 = 5551759.400319 m
    expect(Math.abs(geodesicKilometers(40.6, -73.8, 51.6, -0.5) - 5551.759400319)).toBeLessThan(
      1e-6,
    );
    // and Wellington to Salamanca, nearly antipodal: s12 = 19959679.267 m
    const far = geodesicKilometers(-41.32, 174.81, 40.96, -5.5);
    expect(Math.abs(far - 19959.679267)).toBeLessThan(1e-6);
    expect(geodesicKilometers(10, 20, 10, 20)).toBe(0);
  });

  it('checks its coordinates first', () => {
    const session = new ToolSandboxSession(new ExecutionContext(), TOOLS);
    const args = { latitude_0: 95, longitude_0: 0, latitude_1: 0, longitude_1: 0 };
    const [result] = session.agentCalls([
      { id: 'c1', name: 'calculate_lat_lon_distance', arguments: args },
    ]);
    expect(result!.content).toBe(
      "ValueError: Parameter 'latitude_0' is larger than its valid range maximum of 90.0.",
    );
  });
});
