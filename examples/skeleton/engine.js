#!/usr/bin/env node
// A minimal engine for `tractor conform`: the handshake, the dispatch, and `skipped` for every operation.
//
// Start here: it speaks the whole protocol (docs/protocol.md) and judges nothing. Run it,
//
//     tractor conform --engine "node examples/skeleton/engine.js" --ruleset r000
//
// and every case is reported skipped, none errored. Then replace the handlers one operation at a time
// (docs/guide.rst, "From the skeleton to green"): a handler returns the result object of its operation,
// or throws NOT_YET to answer `skipped`. Node's standard library only.
"use strict";
const readline = require("readline");

const NAME = "my-engine", VERSION = "0.1";
const RULESETS = ["r000"];          // the rulesets you answer (["*"] for any)
const NOT_YET = new Error("not implemented yet");
const notYet = (input) => { throw NOT_YET; };

// operation -> handler(input) -> result; each of these answers `skipped` until you write it
const HANDLERS = {
  classify: notYet,     // {kind, suit, components}
  lead: notYet,         // {legal, reason[, failure]}
  follow: notYet,       // {legal, reason}
  winner: notYet,       // {winner, points}
  kitty: notYet,        // {points}
  result: notYet,       // {next_banker, levels}
  advance: notYet,      // {level, won}
  declare: notYet,      // {legal, reason, trump, declarer, banker}
  undeclared: notYet,   // {redeal, trump, banker_side, level}
  hand: notYet,         // {attackers_points, next_banker, levels[, knocked_back], next_banker_seat}
  penalty: notYet,      // {points, ends_hand, consequence, next_banker, levels}
  deal: notYet,         // {proper, redeal, buries}
};

function answer(req) {
  const seq = req.seq, op = req.op;
  if (op === "handshake") {
    return {seq, result: {protocol: 1, name: NAME, version: VERSION, language: "JavaScript",
                          rulesets: RULESETS, operations: Object.keys(HANDLERS)}};
  }
  if (op === "shutdown") return {seq, result: {}};
  const handler = HANDLERS[op];
  if (!handler) return {seq, errored: {message: `unknown operation ${op}`}};
  try {
    return {seq, result: handler(req.input)};
  } catch (e) {
    if (e === NOT_YET) return {seq, skipped: {reason: `${op} is not implemented yet`}};
    return {seq, errored: {message: String(e && e.stack || e)}};   // a bug of the engine: say so, keep serving
  }
}

const rl = readline.createInterface({input: process.stdin, terminal: false});
rl.on("line", (line) => {           // one request per line, one answer per line, in order
  if (!line.trim()) return;
  const req = JSON.parse(line);
  process.stdout.write(JSON.stringify(answer(req)) + "\n");   // stdout carries answers only: log to stderr
  if (req.op === "shutdown") { rl.close(); }
});
