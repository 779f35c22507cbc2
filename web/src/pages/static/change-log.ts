export interface Release {
  version: string;
  /** ISO date, shown as DD/MM/YYYY. */
  date: string;
  notes: string[];
}

/** Releases 2.0 to 3.8, dated 24/05/2024 to 03/09/2024; oldest first here, shown newest first (docs/static-pages.md#change-log). */
export const RELEASES: Release[] = [
  {
    version: '2.0',
    date: '2024-05-24',
    notes: [
      'The closed beta opens.',
      'New sign-up: choose a username, share your location, pick a user type and agree to the code of conduct.',
      'Terms and privacy policy published.',
    ],
  },
  {
    version: '2.1',
    date: '2024-05-31',
    notes: ['Home carousel with a genre and distance filter.', 'Distances in km on every mix card.'],
  },
  {
    version: '2.2',
    date: '2024-06-07',
    notes: ['Save mixes to your library.', 'Save single tracks straight from a tracklist.'],
  },
  {
    version: '2.3',
    date: '2024-06-14',
    notes: ['Find a saved track on two music stores with one tap.', 'Faster track matching for mixes over two hours.'],
  },
  {
    version: '2.4',
    date: '2024-06-21',
    notes: ['Follow members and see who follows you.', 'Following and followers lists show how far away each member is.'],
  },
  {
    version: '2.5',
    date: '2024-06-28',
    notes: ['Search members by display name.', 'Profiles get a bio of up to 180 characters.'],
  },
  {
    version: '3.0',
    date: '2024-07-05',
    notes: ['A new four-step upload: mix upload, add tracks, confirm tracks, payment.', 'Crop your cover image square before it uploads.'],
  },
  {
    version: '3.1',
    date: '2024-07-12',
    notes: ['Single uploads: 12 months of hosting for $4.00.', 'BETA codes unlock a free upload: try free-mix.'],
  },
  {
    version: '3.2',
    date: '2024-07-19',
    notes: ['Subscriptions with unlimited uploads.', '70% of every subscription goes to the music creators in your mixes.'],
  },
  {
    version: '3.3',
    date: '2024-07-26',
    notes: [
      'Share a mix or a profile with a public link: no account needed to listen.',
      "A 'Copied mix' bubble confirms the link is copied.",
    ],
  },
  {
    version: '3.4',
    date: '2024-08-02',
    notes: ['The player remembers your current mix and where you stopped.', 'Mix stats: listeners, listens, hours and saves.'],
  },
  {
    version: '3.5',
    date: '2024-08-09',
    notes: ['Reset a forgotten password by email.', 'Change your password in Settings.'],
  },
  {
    version: '3.6',
    date: '2024-08-16',
    notes: ["A 'New' badge marks fresh uploads.", 'More mixes by the same member under every mix.'],
  },
  {
    version: '3.7',
    date: '2024-08-23',
    notes: ['Clearer keyboard focus and labels across the app.', 'Lists of followers load faster on slow connections.'],
  },
  {
    version: '3.8',
    date: '2024-09-03',
    notes: ['A demo of a track match between two members on the landing page.', 'Bug fixes in the tracklist editor.'],
  },
];

/** '2024-05-24' -> '24/05/2024', the documented way of writing release dates. */
export function releaseDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}/${month}/${year}`;
}
