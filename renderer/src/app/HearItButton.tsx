// "Hear it first": one button, wherever an exact text is about to be sent (Send, each row of a bulk
// preview, quick dial). It reads the text aloud with the system's Chinese voice, or says plainly
// why it cannot (no speech synthesis, no Chinese voice installed) instead of playing nothing.
import { useEffect, useRef, useState } from 'react';
import { Button, Typography } from 'antd';
import { PauseCircleOutlined, SoundOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { loadVoices, speak, speechAvailability, stopSpeaking } from './speech';

export interface HearItButtonProps {
  /** The exact filled-in text that would be read on the call. */
  text: string;
  size?: 'small' | 'middle';
  /** Only the icon (a table row): the label becomes the button's accessible name and tooltip. */
  iconOnly?: boolean;
  'data-testid'?: string;
}

export function HearItButton({ text, size = 'middle', iconOnly = false, 'data-testid': testId = 'hear-it' }: HearItButtonProps) {
  const { t } = useTranslation();
  const [playing, setPlaying] = useState(false);
  const [problem, setProblem] = useState<'no-synthesis' | 'no-chinese-voice' | null>(null);
  const mounted = useRef(true);
  const playingNow = useRef(false);
  playingNow.current = playing;
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      // What this button reads stops when it goes (the modal closes, the row leaves).
      if (playingNow.current) stopSpeaking();
    };
  }, []);

  const play = async () => {
    if (playing) {
      stopSpeaking();
      setPlaying(false);
      return;
    }
    const availability = speechAvailability(await loadVoices());
    if (!mounted.current) return;
    if (!availability.ok) {
      setProblem(availability.reason);
      return;
    }
    setProblem(null);
    setPlaying(true);
    await speak(text, availability.voice);
    if (mounted.current) setPlaying(false);
  };

  const label = playing ? t('speech.stop') : t('speech.play');
  return (
    <span className="hear-it" data-testid={testId}>
      <Button
        size={size}
        icon={playing ? <PauseCircleOutlined /> : <SoundOutlined />}
        onClick={() => void play()}
        disabled={text.trim() === ''}
        aria-label={iconOnly ? label : undefined}
        title={iconOnly ? label : undefined}
        data-testid={`${testId}-button`}
        data-playing={playing ? 'true' : 'false'}
      >
        {iconOnly ? null : label}
      </Button>
      {problem ? (
        <Typography.Text
          type="warning"
          role="status"
          className="hear-it-problem"
          style={{ display: 'block', marginTop: 4 }}
          data-testid={`${testId}-problem`}
          data-reason={problem}
        >
          {t(`speech.${problem}`)}
        </Typography.Text>
      ) : null}
    </span>
  );
}
