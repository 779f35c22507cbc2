import type { SVGProps } from 'react';

/** Small inline icons (decorative: the buttons that hold them carry the label). */
type IconProps = SVGProps<SVGSVGElement>;

const base = (props: IconProps): IconProps => ({
  width: 24,
  height: 24,
  viewBox: '0 0 24 24',
  fill: 'currentColor',
  focusable: false,
  ...props,
});

export const PlayIcon = (props: IconProps) => (
  <svg aria-hidden="true" {...base(props)}>
    <path d="M8 5.14v13.72a1 1 0 0 0 1.5.86l11-6.86a1 1 0 0 0 0-1.72l-11-6.86A1 1 0 0 0 8 5.14Z" />
  </svg>
);

export const PauseIcon = (props: IconProps) => (
  <svg aria-hidden="true" {...base(props)}>
    <rect x="6" y="4.5" width="4" height="15" rx="1.2" />
    <rect x="14" y="4.5" width="4" height="15" rx="1.2" />
  </svg>
);

export const ShareIcon = (props: IconProps) => (
  <svg aria-hidden="true" {...base({ fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', ...props })}>
    <path d="M10 14a5 5 0 0 0 7.07 0l3-3a5 5 0 0 0-7.07-7.07l-1 1" />
    <path d="M14 10a5 5 0 0 0-7.07 0l-3 3a5 5 0 0 0 7.07 7.07l1-1" />
  </svg>
);

export const HeartIcon = ({ filled, ...props }: IconProps & { filled?: boolean }) => (
  <svg aria-hidden="true" {...base({ fill: filled ? 'currentColor' : 'none', stroke: 'currentColor', strokeWidth: 2, ...props })}>
    <path d="M12 20.5s-7.5-4.6-9.3-9.2C1.4 7.9 3.6 4.5 7 4.5c2 0 3.3 1.1 5 3 1.7-1.9 3-3 5-3 3.4 0 5.6 3.4 4.3 6.8-1.8 4.6-9.3 9.2-9.3 9.2Z" />
  </svg>
);

export const VolumeIcon = (props: IconProps) => (
  <svg aria-hidden="true" {...base(props)}>
    <path d="M4 9v6h4l5 4V5L8 9H4Zm12.5 3a4.5 4.5 0 0 0-2.5-4v8a4.5 4.5 0 0 0 2.5-4Z" />
  </svg>
);

export const HeadphonesIcon = (props: IconProps) => (
  <svg aria-hidden="true" {...base({ fill: 'none', stroke: 'currentColor', strokeWidth: 2, ...props })}>
    <path d="M4 15v-3a8 8 0 0 1 16 0v3" />
    <rect x="3" y="14" width="4" height="6" rx="1.5" />
    <rect x="17" y="14" width="4" height="6" rx="1.5" />
  </svg>
);

export const TrashIcon = (props: IconProps) => (
  <svg aria-hidden="true" {...base({ fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', ...props })}>
    <path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13" />
  </svg>
);

export const ChevronIcon = ({ direction = 'right', ...props }: IconProps & { direction?: 'left' | 'right' }) => (
  <svg aria-hidden="true" {...base({ fill: 'none', stroke: 'currentColor', strokeWidth: 2.5, strokeLinecap: 'round', ...props })}>
    <path d={direction === 'right' ? 'm9 5 7 7-7 7' : 'm15 5-7 7 7 7'} />
  </svg>
);

export const FilterIcon = (props: IconProps) => (
  <svg aria-hidden="true" {...base({ fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', ...props })}>
    <path d="M4 6h16M7 12h10M10 18h4" />
  </svg>
);

export const CloseIcon = (props: IconProps) => (
  <svg aria-hidden="true" {...base({ fill: 'none', stroke: 'currentColor', strokeWidth: 2.5, strokeLinecap: 'round', ...props })}>
    <path d="m6 6 12 12M18 6 6 18" />
  </svg>
);

export const BellIcon = (props: IconProps) => (
  <svg aria-hidden="true" {...base({ fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', ...props })}>
    <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
    <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
  </svg>
);
