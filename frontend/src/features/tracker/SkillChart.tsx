import { CartesianGrid, LabelList, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps, type XAxisTickContentProps } from 'recharts';
import type { ProgressPoint } from '@/shared/api/types';
import { formatLocalDate } from '@/shared/format';
import { clbText } from './skills';

interface Props {
  title: string;
  points: ProgressPoint[];
  color: string;
  /** Opens a session's result; undefined when the skill's results have no review page. */
  onOpen: ((p: ProgressPoint) => void) | undefined;
}

interface Datum {
  session: string;
  clb: number;
  point: ProgressPoint;
}

const CLB_TICKS = Array.from({ length: 13 }, (_, i) => i);
const AXIS_TICK = { fontSize: 11, fill: '#4a5568' };

/** 'Session n' on one line, or on two when the sessions are too close for one (narrow screens). */
function SessionTick({ x, y, payload, width, visibleTicksCount }: XAxisTickContentProps) {
  const label = String(payload.value);
  const room = Number(width) / Math.max(1, visibleTicksCount);
  const [word, number] = label.split(' ');
  return (
    <text x={x} y={y} dy={12} textAnchor="middle" fontSize={11} fill="#4a5568">
      {room >= 64 || !number ? (
        label
      ) : (
        <>
          <tspan x={x}>{word}</tspan>
          <tspan x={x} dy={12}>
            {number}
          </tspan>
        </>
      )}
    </text>
  );
}

function reducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function SessionTooltip({ active, payload }: TooltipContentProps) {
  const datum = payload[0]?.payload as Datum | undefined;
  if (!active || !datum) return null;
  return (
    <div className="tracker-tooltip">
      <strong>{datum.session}</strong>
      <span>{clbText(datum.clb)}</span>
      <span>
        {datum.point.score} / {datum.point.total} · {formatLocalDate(datum.point.timestamp)}
      </span>
    </div>
  );
}

/** One skill's CLB over its recent sessions: x 'Recent Sessions', y 'CLB Level' 0 to 12, monotone curve (spec §2, §9). */
export default function SkillChart({ title, points, color, onOpen }: Props) {
  const data: Datum[] = points.map((point, i) => ({ session: `Session ${i + 1}`, clb: point.clb, point }));
  const summary = data.map((d) => `${d.session}: ${clbText(d.clb)}`).join(', ');
  const open = (index: unknown) => {
    const d = data[Number(index)];
    if (d && onOpen) onOpen(d.point);
  };
  const cursor = onOpen ? 'pointer' : 'default';
  // One session has no line to draw: its point is drawn filled and larger, with its level written above it.
  const single = data.length === 1;

  return (
    <div className="tracker-chart" role="img" aria-label={`${title}, CLB level by session. ${summary}.`}>
      <ResponsiveContainer width="100%" height={250}>
        <LineChart
          data={data}
          margin={{ top: 12, right: 16, bottom: 26, left: 0 }}
          accessibilityLayer={false}
          onClick={(state) => open(state.activeIndex)}
          style={{ cursor }}
        >
          <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="session"
            interval={0}
            tick={SessionTick}
            height={36}
            tickLine={false}
            axisLine={{ stroke: '#cbd5e1' }}
            padding={{ left: 16, right: 16 }}
            label={{ value: 'Recent Sessions', position: 'insideBottom', offset: -18, fontSize: 12, fill: '#17202e' }}
          />
          <YAxis
            domain={[0, 12]}
            ticks={CLB_TICKS}
            interval={0}
            allowDecimals={false}
            tick={AXIS_TICK}
            tickLine={false}
            axisLine={{ stroke: '#cbd5e1' }}
            width={44}
            label={{ value: 'CLB Level', angle: -90, position: 'insideLeft', offset: 12, fontSize: 12, fill: '#17202e', style: { textAnchor: 'middle' } }}
          />
          <Tooltip content={SessionTooltip} cursor={{ stroke: '#cbd5e1' }} />
          <Line
            type="monotone"
            dataKey="clb"
            stroke={color}
            strokeWidth={2.5}
            dot={single ? { r: 6.5, fill: color, stroke: '#fff', strokeWidth: 2, cursor } : { r: 4.5, fill: '#fff', stroke: color, strokeWidth: 2.5, cursor }}
            activeDot={{ r: 7, fill: color, stroke: '#fff', strokeWidth: 2, cursor }}
            isAnimationActive={!single && !reducedMotion()}
          >
            {single && <LabelList dataKey="clb" position="top" offset={12} formatter={(v: unknown) => clbText(Number(v))} fontSize={12} fontWeight={700} fill={color} />}
          </Line>
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
