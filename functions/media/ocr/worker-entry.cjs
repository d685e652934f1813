'use strict';

/*
 * Entry of the OCR worker thread (tesseract.js's own Node worker script, behind a network guard).
 *
 * Language data and the wasm core come from node_modules; nothing in this thread may reach the
 * network. Tesseract falls back to a CDN when a language is asked for by name without a local
 * langPath; with this guard such a slip fails loudly instead of downloading. The guard is installed
 * before tesseract's script loads, because that script captures `global.fetch` at load time.
 */
const net = require('node:net');
const tls = require('node:tls');

function refuse(what) {
  throw new Error(`OCR worker: network access refused (${what}); language data must come from node_modules`);
}

globalThis.fetch = (input) => refuse(`fetch ${String(input?.url ?? input)}`);
net.Socket.prototype.connect = function connect() {
  refuse('socket connect');
};
net.connect = net.createConnection = () => refuse('net.connect');
tls.connect = () => refuse('tls.connect');

// tesseract.js never settles createWorker when loading or initialising fails, and a worker whose
// language switch failed is unusable: after reporting such a failure the thread ends itself, so
// the parent sees 'exit' and nothing lingers.
const { parentPort } = require('node:worker_threads');
const SETUP = new Set(['load', 'loadLanguage', 'initialize']);
const post = parentPort.postMessage.bind(parentPort);
parentPort.postMessage = (packet) => {
  post(packet);
  if (packet && packet.status === 'reject' && SETUP.has(packet.action)) setImmediate(() => process.exit(1));
};

require('tesseract.js/src/worker-script/node/index.js');
