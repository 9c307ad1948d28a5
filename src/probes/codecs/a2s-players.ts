// Valve A2S_PLAYER's answer: S2A_PLAYER (0x44), the players online with their score and time connected.
import { Reader } from './a2s-reader.js';

/** Entries read from one reply; a split reply of the codec's largest size holds fewer. */
const MAX_PLAYERS = 1024;

/** One entry of an S2A_PLAYER reply. */
export interface A2sPlayer {
  name: string;
  score: number;
  /** Seconds connected. */
  durationSec: number;
}

/** Parses an S2A_PLAYER body (after its 0x44 type byte): a count, then index, name, score and duration per player. */
export function parsePlayers(body: Buffer): A2sPlayer[] {
  const reader = new Reader(body, 'player reply');
  reader.byte(); // the count
  const players: A2sPlayer[] = [];
  // The count is a byte: servers with more than 255 players wrap it, so the entries are read until the bytes end.
  while (!reader.done() && players.length < MAX_PLAYERS) {
    reader.byte(); // index: always 0 on most games
    const name = reader.string();
    const score = reader.int();
    const durationSec = reader.float();
    players.push({ name, score, durationSec });
  }
  return players;
}
