import { useState } from 'react';
import type { MediaImage } from '@/shared/api/types';
import { ImageZoom } from './ImageZoom';
import { MediaNotice } from './MediaNotice';
import type { MediaRecovery } from './useMediaRecovery';
import './media.css';

interface Props {
  image: MediaImage;
  media: MediaRecovery;
}

type LoadState = 'loading' | 'waiting' | 'failed';

function Attempt({ image, media }: Props) {
  const [state, setState] = useState<LoadState>('loading');
  if (state === 'failed') {
    return <MediaNotice message="The image could not be loaded." onRetry={media.retry} retrying={media.refreshing} />;
  }
  return (
    // React dispatches an <img>'s error event to its ancestors too.
    <div
      className={`retryable-image${state === 'waiting' ? ' is-waiting' : ''}`}
      onError={() => setState(media.recover() ? 'waiting' : 'failed')}
    >
      {state === 'waiting' && <p className="retryable-image-status">Loading the image again…</p>}
      <ImageZoom src={image.url} alt={image.alt} width={image.width} height={image.height} />
    </div>
  );
}

/** A question image with its zoom toggle; if it fails to load, a visible notice with Retry. */
export function RetryableImage({ image, media }: Props) {
  return <Attempt key={`${image.url}#${media.generation}`} image={image} media={media} />;
}
