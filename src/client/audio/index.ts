export { createGameAudio, type GameAudio } from './game-audio.ts';
export { CUE_SETTINGS, MUTED_STORAGE_KEY, SOUND_CUES, type SoundCue } from './cues.ts';
