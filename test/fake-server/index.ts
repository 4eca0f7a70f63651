/** The loopback fake model server: start it, script it, read what it received. */
export {
  startFakeServer,
  type FakeServer,
  type FakeServerOptions,
  type RecordedRequest,
  type Responder,
} from './server.js';
export {
  replies,
  seededRandom,
  type FakeReply,
  type RandomFaults,
  type TransportFault,
} from './replies.js';
export type {
  ParsedRequest,
  ReceivedImage,
  ReceivedMessage,
  ReceivedTool,
  ReceivedToolCall,
  ReceivedToolResult,
  Wire,
} from './wire.js';
