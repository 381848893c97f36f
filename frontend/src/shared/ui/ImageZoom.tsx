import { useState } from 'react';
import './image-zoom.css';

interface Props {
  src: string;
  alt: string;
  width: number;
  height: number;
}

/** A question image with a zoom toggle: fits the column, or opens at full size to pan. */
export function ImageZoom({ src, alt, width, height }: Props) {
  const [zoomed, setZoomed] = useState(false);
  return (
    <figure className={`image-zoom${zoomed ? ' is-zoomed' : ''}`}>
      <div className="image-zoom-frame" tabIndex={zoomed ? 0 : -1} aria-label={zoomed ? 'Zoomed image, scroll to pan' : undefined}>
        <img src={src} alt={alt} width={width} height={height} />
      </div>
      <button type="button" className="btn btn-secondary image-zoom-toggle" aria-pressed={zoomed} onClick={() => setZoomed((z) => !z)}>
        {zoomed ? 'Zoom out' : 'Zoom in'}
      </button>
    </figure>
  );
}
