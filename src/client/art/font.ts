/** The game's typeface (Fredoka, served with the page): the wheels' texts and the loading wait name it. */
export const FONT_FAMILY = 'Fredoka';
