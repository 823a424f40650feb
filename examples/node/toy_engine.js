#!/usr/bin/env node
// A toy Tractor engine behind the engine protocol (docs/protocol.md), in plain Node.js.
//
// It knows a little of ruleset r003 by heart -- its own score table and level
// list, not the project's code -- and answers four operations:
//   result   -- attackers' points -> who banks next and how many levels;
//   advance  -- a team's level + a gain -> the level reached, game won?;
//   classify -- singles and pairs only; anything bigger is "skipped";
//   follow   -- single-card leads only, and legal or not only: the handshake
//               declares it (fields: {follow: ["legal"]}), so the runner
//               compares no reason code and says so in its reports.
// Every other operation is answered "skipped" (and left out of the handshake,
// so the runner does not even send it). Run it through the conformance suite:
//
//   tractor conform --engine "node examples/node/toy_engine.js" --ruleset r003 --ops result,advance
//
// Set TOY_ENGINE_BUG=1 to plant a bug (a climb ignores the must-play level A).
"use strict";
const readline = require("readline");

const LEVELS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const MUST_PLAY = process.env.TOY_ENGINE_BUG ? [] : ["A"]; // 必打: a climb stops here
const END = "A";        // passing A wins the game
const THRESHOLD = 120;  // 上台: the attackers take the bank
const BOTTOM = 4;       // the lowest band (25 points or fewer) gives the banker side +4

function result(input) {
  // r003 score table: 30-point steps either side of 120, no cap (the lowest band, 25 or fewer, +4).
  const points = input.attackers_points;
  if (!Number.isInteger(points)) throw new Error("attackers_points: expected an integer");
  if (points < THRESHOLD) {
    return { next_banker: "banker", levels: Math.min(BOTTOM, Math.floor((THRESHOLD - 1 - points) / 30) + 1) };
  }
  return { next_banker: "attackers", levels: Math.floor((points - THRESHOLD) / 30) };
}

function advance(input) {
  const { level, gain, as_banker: asBanker } = input;
  const here = LEVELS.indexOf(level);
  if (here < 0 || !Number.isInteger(gain) || gain < 0) throw new Error("expected a level 2..A and a gain >= 0");
  if (gain === 0) return { level, won: false };
  const target = here + gain;
  const stops = MUST_PLAY.map((m) => LEVELS.indexOf(m)).filter((m) => here < m && m < target);
  if (stops.length) return { level: LEVELS[Math.min(...stops)], won: false };
  const end = LEVELS.indexOf(END);
  if (target > end) {
    if (MUST_PLAY.includes(END) && here === end && !asBanker) return { level: END, won: false };
    return { level: END, won: true };
  }
  return { level: LEVELS[target], won: false };
}

function effectiveSuit(card, level, trump) {
  if (card === "J+" || card === "J-") return "trump";
  const rank = card.slice(0, -1), suit = card.slice(-1);
  return rank === level || suit === trump ? "trump" : suit;
}

function classify(input) {
  const { cards, level, trump } = input;
  let kind = null;
  if (cards.length === 1) kind = "single";
  else if (cards.length === 2 && cards[0] === cards[1]) kind = "pair";
  if (kind === null) return null; // tractors, throws, ...: not implemented
  return { kind, suit: effectiveSuit(cards[0], level, trump),
           components: [{ kind, size: cards.length, length: 1, cards }] };
}

function follow(input) {
  // A single card led: follow its suit while you hold one. Bigger leads: not implemented.
  const { lead, hand, play, level, trump } = input;
  if (lead.length !== 1) return null;
  const suit = effectiveSuit(lead[0], level, trump);
  const holds = play.length === 1 && hand.includes(play[0]);
  const canFollow = hand.some((c) => effectiveSuit(c, level, trump) === suit);
  return { legal: holds && (!canFollow || effectiveSuit(play[0], level, trump) === suit) };
}

const OPERATIONS = { advance, classify, follow, result };

function answer(req) {
  const seq = Number.isInteger(req.seq) ? req.seq : 0;
  const op = req.op;
  if (op === "handshake") {
    return { seq, result: { protocol: 1, name: "toy-node", version: "0.1", language: `Node.js ${process.version}`,
                            rulesets: ["r003"], operations: Object.keys(OPERATIONS),
                            fields: { follow: ["legal"] } } }; // partial answers, declared
  }
  if (op === "shutdown") return { seq, result: {} };
  if (!(op in OPERATIONS) || req.ruleset !== "r003") {
    return { seq, skipped: { reason: `the toy engine does not do ${op} under ${req.ruleset}` } };
  }
  let out;
  try {
    out = OPERATIONS[op](req.input);
  } catch (e) {
    return { seq, errored: { message: String(e.message || e) } };
  }
  if (out === null) return { seq, skipped: { reason: `the toy engine's ${op} handles single cards (and pairs) only` } };
  return { seq, result: out };
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  if (!line.trim()) return;
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    process.stdout.write(JSON.stringify({ seq: 0, errored: { message: `invalid JSON: ${e.message}` } }) + "\n");
    return;
  }
  process.stdout.write(JSON.stringify(answer(req)) + "\n"); // one answer per line, in order
  if (req.op === "shutdown") rl.close();
});
rl.on("close", () => process.exit(0)); // end of input (or shutdown): stop
