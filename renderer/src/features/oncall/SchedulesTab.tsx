// Schedules: a rotation (participants in order, shifts of days or weeks, a handover time, a time
// zone), temporary overrides, who is on call now and next, two weeks at a glance, and the shifts as
// an iCalendar file for people's calendars.
import { useState } from 'react';
import { Button, Card, Empty, Flex, Input, InputNumber, Modal, Select, Tag, Typography } from 'antd';
import { CalendarOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ContactRecord } from '../../../../common/bulk-types';
import { codedArgs, MESSAGES_NS } from '../../../../common/messages';
import {
  DEFAULT_TIME_ZONE,
  nextShift,
  onCallAt,
  rotationStart,
  toICalendar,
  twoWeeks,
  validateOverride,
  validateRotation,
} from '../../../../common/paging/schedule';
import { epochToLocal, formatDate, formatTime, isTimeZone, localToEpoch } from '../../../../common/paging/zoned';
import type { Override, Schedule } from '../../../../common/paging/types';
import { downloadText } from '../../app/browser-io';
import { ErrorView } from './ErrorView';
import { contactsQuery, useRemoveSchedule, useSaveSchedule, useSchedules } from './data';

function say(t: TFunction, [key, options]: [string, object]): string {
  return (t as unknown as (k: string, o: object) => string)(key, { ...options, ns: MESSAGES_NS });
}

const DAY = 86_400_000;

/** 'YYYY-MM-DD HH:MM' in a time zone. */
function local(t: number, tz: string): string {
  const p = epochToLocal(t, tz);
  return `${formatDate(p)} ${formatTime(p)}`;
}

/** A datetime-local value ('YYYY-MM-DDTHH:MM') in a time zone → epoch ms (NaN when incomplete). */
function fromLocalInput(v: string, tz: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(v);
  if (!m || !isTimeZone(tz)) return NaN;
  return localToEpoch({ year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4]!, minute: +m[5]! }, tz);
}
const toLocalInput = (t: number, tz: string) => local(t, tz).replace(' ', 'T');

export function SchedulesTab() {
  const { t, i18n } = useTranslation();
  const schedules = useSchedules();
  const contacts = useQuery(contactsQuery);
  const remove = useRemoveSchedule();
  const [editing, setEditing] = useState<Schedule | null | 'new'>(null);
  const [now] = useState(() => Date.now());
  const name = (id: number) => contacts.data?.find((c) => c.id === id)?.name ?? `#${id}`;

  const ical = (s: Schedule) => {
    const names = new Map((contacts.data ?? []).map((c) => [c.id, c.name]));
    const text = toICalendar(s, names, now - 7 * DAY, now + 90 * DAY, {
      dtstamp: now,
      summary: say(t, ['paging.schedule.ical-summary', { name: '{{name}}', schedule: '{{schedule}}' }]),
      overrideNote: say(t, ['paging.schedule.ical-override', { name: '{{name}}' }]),
    });
    downloadText(`${s.name}.ics`, text, 'text/calendar');
  };

  return (
    <div data-testid="schedules-tab">
      <ErrorView error={schedules.error ?? contacts.error ?? remove.error} />
      <Flex justify="space-between" align="center" gap={12} style={{ marginBottom: 8 }}>
        <Typography.Text type="secondary">{t('oncall.schedules.intro')}</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} disabled={!contacts.data?.length} data-testid="schedule-add">
          {t('oncall.schedules.add')}
        </Button>
      </Flex>
      {schedules.data && !schedules.data.length ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('oncall.schedules.empty')} /> : null}
      <Flex vertical gap={12}>
        {(schedules.data ?? []).map((s) => {
          const current = onCallAt(s, now);
          const next = nextShift(s, now);
          const days = twoWeeks(s, now, s.rotation.timeZone);
          return (
            <Card
              key={s.id}
              size="small"
              title={s.name}
              data-testid="schedule-card"
              extra={
                <Flex gap={4}>
                  <Button size="small" icon={<CalendarOutlined />} onClick={() => ical(s)} data-testid="schedule-ical">
                    {t('oncall.schedules.ical')}
                  </Button>
                  <Button size="small" type="text" icon={<EditOutlined />} aria-label={t('oncall.edit', { name: s.name })} onClick={() => setEditing(s)} />
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('oncall.remove', { name: s.name })}
                    onClick={() => remove.mutate(s.id)}
                  />
                </Flex>
              }
            >
              <Flex gap={16} wrap style={{ marginBottom: 8 }} data-testid="schedule-now">
                <span>
                  {t('oncall.schedules.now')} <strong>{current ? name(current.contactId) : t('oncall.schedules.nobody')}</strong>
                  {current ? (
                    <Typography.Text type="secondary"> ({t('oncall.schedules.until', { at: local(current.to, s.rotation.timeZone) })})</Typography.Text>
                  ) : null}
                </span>
                <span>
                  {t('oncall.schedules.next')} <strong>{next ? name(next.contactId) : '—'}</strong>
                  {next ? (
                    <Typography.Text type="secondary"> ({t('oncall.schedules.from', { at: local(next.from, s.rotation.timeZone) })})</Typography.Text>
                  ) : null}
                </span>
                <Typography.Text type="secondary">
                  {t('oncall.schedules.rule', {
                    count: s.rotation.shift.count,
                    unit: t(`oncall.schedules.unit.${s.rotation.shift.unit}`, { count: s.rotation.shift.count }),
                    handover: s.rotation.handover,
                    tz: s.rotation.timeZone,
                  })}
                </Typography.Text>
              </Flex>
              <div className="oncall-days" data-testid="schedule-days">
                {days.map((d) => (
                  <div key={d.date} className="oncall-day">
                    <div className="oncall-day-date">
                      {d.date.slice(5)} {t(`oncall.weekday.${d.weekday as 0 | 1 | 2 | 3 | 4 | 5 | 6}`)}
                    </div>
                    {d.covers
                      .filter((c) => c.contactId !== null)
                      .map((c, n) => (
                        <div key={n} className={c.overrideId ? 'oncall-cover-override' : undefined} title={`${c.fromTime}–${c.toTime}`}>
                          {c.fromTime !== '00:00' ? `${c.fromTime} ` : ''}
                          {name(c.contactId!)}
                        </div>
                      ))}
                  </div>
                ))}
              </div>
              {s.overrides.length ? (
                <div style={{ marginTop: 8 }}>
                  {s.overrides.map((o) => (
                    <Tag key={o.id} color="orange">
                      {t('oncall.schedules.overrideLine', {
                        name: name(o.contactId),
                        from: local(o.from, s.rotation.timeZone),
                        to: local(o.to, s.rotation.timeZone),
                      })}
                    </Tag>
                  ))}
                </div>
              ) : null}
            </Card>
          );
        })}
      </Flex>
      {editing && contacts.data ? (
        <ScheduleForm schedule={editing === 'new' ? null : editing} contacts={contacts.data} lang={i18n.language} onClose={() => setEditing(null)} />
      ) : null}
    </div>
  );
}

interface OverrideDraft {
  contactId: number | null;
  from: string;
  to: string;
}

function ScheduleForm({ schedule, contacts, onClose }: { schedule: Schedule | null; contacts: ContactRecord[]; lang: string; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveSchedule();
  const r = schedule?.rotation;
  const tz0 = r?.timeZone ?? DEFAULT_TIME_ZONE;
  const [name, setName] = useState(schedule?.name ?? '');
  const [participants, setParticipants] = useState<number[]>(r?.participants ?? []);
  const [count, setCount] = useState(r?.shift.count ?? 1);
  const [unit, setUnit] = useState<'day' | 'week'>(r?.shift.unit ?? 'week');
  const [handover, setHandover] = useState(r?.handover ?? '10:00');
  const [timeZone, setTimeZone] = useState(tz0);
  const [startDate, setStartDate] = useState(formatDate(epochToLocal(r?.start ?? Date.now(), tz0)));
  const [overrides, setOverrides] = useState<OverrideDraft[]>(
    (schedule?.overrides ?? []).map((o) => ({ contactId: o.contactId, from: toLocalInput(o.from, tz0), to: toLocalInput(o.to, tz0) })),
  );

  let start: number;
  try {
    start = isTimeZone(timeZone) ? rotationStart(startDate, handover, timeZone) : NaN;
  } catch {
    start = NaN;
  }
  const rotation = { participants, shift: { count, unit }, handover, timeZone, start };
  const issues = validateRotation(rotation);
  const parsedOverrides = overrides.map((o) => ({ contactId: o.contactId ?? 0, from: fromLocalInput(o.from, timeZone), to: fromLocalInput(o.to, timeZone) }));
  const overrideIssues = parsedOverrides.map((o) => validateOverride(o));
  const issueFor = (field: string) => issues.find((i) => i.field === field);
  const ready = name.trim() && issues.length === 0 && overrideIssues.every((x) => x.length === 0);
  const fieldError = (field: string) => {
    const issue = issueFor(field);
    return issue ? (
      <Typography.Text type="danger" className="oncall-field-error" data-testid={`schedule-error-${field}`}>
        {say(t, codedArgs('paging.schedule', issue))}
      </Typography.Text>
    ) : null;
  };

  return (
    <Modal
      open
      title={schedule ? t('oncall.schedules.edit') : t('oncall.schedules.add')}
      onCancel={onClose}
      onOk={() =>
        ready && save.mutate({ id: schedule?.id, name: name.trim(), rotation, overrides: parsedOverrides as Omit<Override, 'id'>[] }, { onSuccess: onClose })
      }
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !ready, loading: save.isPending, 'data-testid': 'schedule-save' }}
      width={680}
    >
      <div data-testid="schedule-form">
        <ErrorView error={save.error} />
        <label className="oncall-field">
          <span>{t('oncall.schedules.name')}</span>
          <Input value={name} onChange={(e) => setName(e.target.value)} data-testid="schedule-name" />
        </label>
        <label className="oncall-field">
          <span>{t('oncall.schedules.participants')}</span>
          <Select
            mode="multiple"
            value={participants}
            onChange={(v: number[]) => setParticipants(v)}
            options={contacts.map((c) => ({ value: c.id, label: c.name }))}
            optionFilterProp="label"
            data-testid="schedule-participants"
          />
        </label>
        {fieldError('participants')}
        <Flex gap={12} wrap>
          <label className="oncall-field">
            <span>{t('oncall.schedules.shift')}</span>
            <Flex gap={4}>
              <InputNumber min={1} max={52} value={count} onChange={(v) => setCount(v ?? 1)} style={{ width: 80 }} />
              <Select
                value={unit}
                onChange={(v: 'day' | 'week') => setUnit(v)}
                style={{ width: 90 }}
                options={(['day', 'week'] as const).map((u) => ({ value: u, label: t(`oncall.schedules.unit.${u}`, { count }) }))}
              />
            </Flex>
          </label>
          <label className="oncall-field">
            <span>{t('oncall.schedules.handover')}</span>
            <Input
              value={handover}
              onChange={(e) => setHandover(e.target.value)}
              style={{ width: 90 }}
              status={issueFor('handover') ? 'error' : undefined}
              data-testid="schedule-handover"
            />
          </label>
          <label className="oncall-field">
            <span>{t('oncall.schedules.timeZone')}</span>
            <Input value={timeZone} onChange={(e) => setTimeZone(e.target.value)} style={{ width: 170 }} status={issueFor('timeZone') ? 'error' : undefined} />
          </label>
          <label className="oncall-field">
            <span>{t('oncall.schedules.start')}</span>
            <Input type="date" value={startDate} onChange={(e) => setStartDate(e.target.value)} style={{ width: 160 }} />
          </label>
        </Flex>
        {fieldError('shift')}
        {fieldError('handover')}
        {fieldError('timeZone')}
        {fieldError('start')}
        <Typography.Text strong style={{ display: 'block', marginBottom: 4 }}>
          {t('oncall.schedules.overrides')}
        </Typography.Text>
        {overrides.map((o, i) => (
          <div key={i} style={{ marginBottom: 6 }}>
            <Flex gap={6} wrap align="center">
              <Select
                value={o.contactId ?? undefined}
                placeholder={t('oncall.schedules.covers')}
                style={{ width: 140 }}
                onChange={(v: number) => setOverrides(overrides.map((x, n) => (n === i ? { ...x, contactId: v } : x)))}
                options={contacts.map((c) => ({ value: c.id, label: c.name }))}
              />
              <Input
                type="datetime-local"
                value={o.from}
                onChange={(e) => setOverrides(overrides.map((x, n) => (n === i ? { ...x, from: e.target.value } : x)))}
                style={{ width: 200 }}
                aria-label={t('oncall.schedules.overrideFrom')}
              />
              <span>–</span>
              <Input
                type="datetime-local"
                value={o.to}
                onChange={(e) => setOverrides(overrides.map((x, n) => (n === i ? { ...x, to: e.target.value } : x)))}
                style={{ width: 200 }}
                aria-label={t('oncall.schedules.overrideTo')}
              />
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                onClick={() => setOverrides(overrides.filter((_, n) => n !== i))}
                aria-label={t('oncall.schedules.removeOverride')}
              />
            </Flex>
            {overrideIssues[i]!.slice(0, 1).map((issue, n) => (
              <Typography.Text key={n} type="danger" style={{ fontSize: 12 }}>
                {say(t, codedArgs('paging.schedule', issue))}
              </Typography.Text>
            ))}
          </div>
        ))}
        <Button
          icon={<PlusOutlined />}
          onClick={() =>
            setOverrides([...overrides, { contactId: null, from: toLocalInput(Date.now(), timeZone), to: toLocalInput(Date.now() + DAY, timeZone) }])
          }
        >
          {t('oncall.schedules.addOverride')}
        </Button>
      </div>
    </Modal>
  );
}
