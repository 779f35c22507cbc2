import styles from './Avatar.module.css';

/** A member's picture, or their initial on a tinted disc when they have none. Decorative: the name is beside it. */
export function Avatar({ imageUrl, name, size = 48 }: { imageUrl?: string | null; name: string; size?: number }) {
  const style = { width: size, height: size, fontSize: size * 0.42 };
  if (imageUrl) return <img className={styles.avatar} src={imageUrl} alt="" width={size} height={size} style={style} loading="lazy" />;
  return (
    <span className={styles.placeholder} style={style} aria-hidden="true">
      {(name.trim()[0] ?? '?').toUpperCase()}
    </span>
  );
}
