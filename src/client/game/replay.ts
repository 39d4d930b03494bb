import type { Play } from '../../contract/api.ts';
import { restingPlace } from './spin.ts';
import type { ShownWheels, TableView } from './views.ts';

type ReplayTable = Pick<TableView, 'showSegments' | 'showStopped' | 'rotationDeg'>;

/**
 * Article 4.1: a past play shown again on the wheels. It remembers how the table looked
 * before — segments and angles — so closing the replay puts the table back exactly.
 */
export class Replay {
  private constructor(
    readonly play: Play,
    private readonly before: { shown: ShownWheels; rotations: number[] },
  ) {}

  /** Notes the table as it is (`shown` on it now), then puts the past play's segments on it. */
  static begin(play: Play, table: ReplayTable, shown: ShownWheels): Replay {
    const rotations = play.wheels.map((_, i) => table.rotationDeg(i));
    table.showSegments(play.wheels);
    return new Replay(play, { shown, rotations });
  }

  /** The table as it was before, with no animation; returns the segments now shown. */
  restore(table: ReplayTable): ShownWheels {
    table.showSegments(this.before.shown);
    this.before.rotations.forEach((deg, i) => {
      const { stop, offset } = restingPlace(deg);
      table.showStopped(i, stop, offset);
    });
    return this.before.shown;
  }
}
