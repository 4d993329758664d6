// Escalation policies: ordered steps (a contact, a group one by one or all at once, whoever is on
// call in a schedule), attempts, the wait between attempts and before the next step, repeats and
// the shortest answer that counts. The timeline of calls is shown before the policy is saved.
import { useState } from 'react';
import { Button, Card, Empty, Flex, Input, InputNumber, Modal, Select, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ContactGroupRecord, ContactRecord } from '../../../../common/bulk-types';
import { codedArgs, MESSAGES_NS } from '../../../../common/messages';
import { onCallAt } from '../../../../common/paging/schedule';
import { formatOffset, policyIssues, policyTimeline, type ResolvedStep } from '../../../../common/paging/timeline';
import type { EscalationPolicy, PolicyStep, Schedule, StepTarget } from '../../../../common/paging/types';
import { ErrorView } from './ErrorView';
import { contactsQuery, groupsQuery, usePolicies, useRemovePolicy, useSavePolicy, useSchedules } from './data';

function say(t: TFunction, [key, options]: [string, object]): string {
  return (t as unknown as (k: string, o: object) => string)(key, { ...options, ns: MESSAGES_NS });
}

interface People {
  contacts: ContactRecord[];
  groups: ContactGroupRecord[];
  schedules: Schedule[];
}

/** Who a step calls now, by name (a schedule: whoever is on call at this moment). */
export function resolveStep(step: PolicyStep, people: People, now: number): ResolvedStep {
  const name = (id: number) => people.contacts.find((c) => c.id === id)?.name ?? `#${id}`;
  const target = step.target;
  if (target.kind === 'contact') return { names: [name(target.contactId)] };
  if (target.kind === 'group') {
    const g = people.groups.find((x) => x.id === target.groupId);
    return { names: (g?.memberIds ?? []).map(name), together: target.mode === 'all-at-once' };
  }
  const s = people.schedules.find((x) => x.id === target.scheduleId);
  const shift = s ? onCallAt(s, now) : null;
  return { names: shift ? [name(shift.contactId)] : [] };
}

function targetLabel(t: TFunction, target: StepTarget, people: People): string {
  if (target.kind === 'contact') return people.contacts.find((c) => c.id === target.contactId)?.name ?? `#${target.contactId}`;
  if (target.kind === 'group')
    return `${people.groups.find((g) => g.id === target.groupId)?.name ?? `#${target.groupId}`} (${t(`oncall.policies.mode.${target.mode}`)})`;
  return t('oncall.policies.onCallIn', { name: people.schedules.find((s) => s.id === target.scheduleId)?.name ?? `#${target.scheduleId}` });
}

function usePeople(): People | null {
  const contacts = useQuery(contactsQuery);
  const groups = useQuery(groupsQuery);
  const schedules = useSchedules();
  return contacts.data && groups.data && schedules.data ? { contacts: contacts.data, groups: groups.data, schedules: schedules.data } : null;
}

export function PoliciesTab() {
  const { t } = useTranslation();
  const policies = usePolicies();
  const people = usePeople();
  const remove = useRemovePolicy();
  const [editing, setEditing] = useState<(Omit<EscalationPolicy, 'id'> & { id?: number }) | null>(null);
  const fresh = () => ({ name: '', steps: [], repeat: 0, minAnsweredSeconds: 0 });

  return (
    <div data-testid="policies-tab">
      <ErrorView error={policies.error ?? remove.error} />
      <Flex justify="space-between" align="center" gap={12} style={{ marginBottom: 8 }}>
        <Typography.Text type="secondary">{t('oncall.policies.intro')}</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(fresh())} disabled={!people?.contacts.length} data-testid="policy-add">
          {t('oncall.policies.add')}
        </Button>
      </Flex>
      {policies.data && !policies.data.length ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('oncall.policies.empty')} /> : null}
      <Flex vertical gap={8}>
        {people
          ? (policies.data ?? []).map((p) => (
              <Card
                key={p.id}
                size="small"
                title={p.name}
                data-testid="policy-card"
                extra={
                  <Flex gap={4}>
                    <Button size="small" type="text" icon={<EditOutlined />} aria-label={t('oncall.edit', { name: p.name })} onClick={() => setEditing(p)} />
                    <Button
                      size="small"
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('oncall.remove', { name: p.name })}
                      onClick={() => remove.mutate(p.id)}
                    />
                  </Flex>
                }
              >
                <ol className="oncall-timeline">
                  {p.steps.map((s, i) => (
                    <li key={i}>
                      {t('oncall.policies.stepSummary', {
                        who: targetLabel(t, s.target, people),
                        count: s.attempts,
                        retry: s.retrySeconds,
                        pause: s.pauseSeconds,
                      })}
                    </li>
                  ))}
                </ol>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('oncall.policies.footer', { count: p.repeat, min: p.minAnsweredSeconds })}
                </Typography.Text>
              </Card>
            ))
          : null}
      </Flex>
      {editing && people ? <PolicyForm draft={editing} people={people} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}

type TargetKind = StepTarget['kind'];

function PolicyForm({ draft, people, onClose }: { draft: Omit<EscalationPolicy, 'id'> & { id?: number }; people: People; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSavePolicy();
  const [d, setD] = useState(draft);
  const [now] = useState(() => Date.now());
  const setStep = (i: number, patch: Partial<PolicyStep>) => setD((x) => ({ ...x, steps: x.steps.map((s, n) => (n === i ? { ...s, ...patch } : s)) }));
  const move = (i: number, by: number) =>
    setD((x) => {
      const steps = [...x.steps];
      const [s] = steps.splice(i, 1);
      steps.splice(i + by, 0, s!);
      return { ...x, steps };
    });
  const defaultTarget = (kind: TargetKind): StepTarget | null => {
    if (kind === 'contact') return people.contacts[0] ? { kind, contactId: people.contacts[0].id } : null;
    if (kind === 'group') return people.groups[0] ? { kind, groupId: people.groups[0].id, mode: 'one-by-one' } : null;
    return people.schedules[0] ? { kind, scheduleId: people.schedules[0].id } : null;
  };
  const addStep = () => setD((x) => ({ ...x, steps: [...x.steps, { target: defaultTarget('contact')!, attempts: 1, retrySeconds: 60, pauseSeconds: 60 }] }));
  const issues = policyIssues(d);
  const timeline = policyTimeline(
    d,
    d.steps.map((s) => resolveStep(s, people, now)),
  );
  const ready = d.name.trim() && issues.length === 0;

  return (
    <Modal
      open
      title={d.id ? t('oncall.policies.edit') : t('oncall.policies.add')}
      onCancel={onClose}
      onOk={() =>
        ready &&
        save.mutate({ id: d.id, name: d.name.trim(), steps: d.steps, repeat: d.repeat, minAnsweredSeconds: d.minAnsweredSeconds }, { onSuccess: onClose })
      }
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !ready, loading: save.isPending, 'data-testid': 'policy-save' }}
      width={760}
    >
      <div data-testid="policy-form">
        <ErrorView error={save.error} />
        <label className="oncall-field">
          <span>{t('oncall.policies.name')}</span>
          <Input value={d.name} onChange={(e) => setD({ ...d, name: e.target.value })} data-testid="policy-name" />
        </label>
        <div className="oncall-preview" style={{ marginBottom: 8 }}>
          <Typography.Text strong>{t('oncall.policies.timeline')}</Typography.Text>
          <ul className="oncall-timeline" data-testid="policy-timeline">
            {timeline.calls.map((c, n) => (
              <li key={n}>{say(t, ['paging.timeline.call', { at: formatOffset(c.at), who: c.who, attempt: c.attempt, attempts: c.attempts }])}</li>
            ))}
            {timeline.emptySteps.map((s) => (
              <li key={`e${s}`}>{say(t, ['paging.timeline.empty-step', { step: s }])}</li>
            ))}
            {timeline.calls.length ? <li>{say(t, ['paging.timeline.end', { at: formatOffset(timeline.endsAt) }])}</li> : null}
            {timeline.truncated ? <li>{say(t, ['paging.timeline.truncated', {}])}</li> : null}
          </ul>
        </div>
        {d.steps.map((s, i) => (
          <Card
            key={i}
            size="small"
            style={{ marginBottom: 8 }}
            title={t('oncall.policies.step', { n: i + 1 })}
            data-testid="policy-step"
            extra={
              <Flex gap={2}>
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowUpOutlined />}
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                  aria-label={t('oncall.policies.up')}
                />
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowDownOutlined />}
                  disabled={i === d.steps.length - 1}
                  onClick={() => move(i, 1)}
                  aria-label={t('oncall.policies.down')}
                />
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => setD({ ...d, steps: d.steps.filter((_, n) => n !== i) })}
                  aria-label={t('oncall.policies.removeStep')}
                />
              </Flex>
            }
          >
            <Flex gap={8} wrap>
              <Select<TargetKind>
                value={s.target.kind}
                style={{ width: 150 }}
                aria-label={t('oncall.policies.who')}
                onChange={(k) => {
                  const target = defaultTarget(k);
                  if (target) setStep(i, { target });
                }}
                options={(['contact', 'group', 'schedule'] as const).map((k) => ({
                  value: k,
                  label: t(`oncall.policies.kind.${k}`),
                  disabled: !defaultTarget(k),
                }))}
              />
              {s.target.kind === 'contact' ? (
                <Select
                  value={s.target.contactId}
                  style={{ width: 180 }}
                  aria-label={t('oncall.policies.kind.contact')}
                  onChange={(contactId: number) => setStep(i, { target: { kind: 'contact', contactId } })}
                  options={people.contacts.map((c) => ({ value: c.id, label: c.name }))}
                  showSearch
                  optionFilterProp="label"
                />
              ) : s.target.kind === 'group' ? (
                <>
                  <Select
                    value={s.target.groupId}
                    style={{ width: 160 }}
                    onChange={(groupId: number) => setStep(i, { target: { ...(s.target as Extract<StepTarget, { kind: 'group' }>), groupId } })}
                    options={people.groups.map((g) => ({ value: g.id, label: g.name }))}
                  />
                  <Select
                    value={s.target.mode}
                    style={{ width: 140 }}
                    onChange={(mode: 'one-by-one' | 'all-at-once') => setStep(i, { target: { ...(s.target as Extract<StepTarget, { kind: 'group' }>), mode } })}
                    options={(['one-by-one', 'all-at-once'] as const).map((m) => ({ value: m, label: t(`oncall.policies.mode.${m}`) }))}
                  />
                </>
              ) : (
                <Select
                  value={s.target.scheduleId}
                  style={{ width: 180 }}
                  onChange={(scheduleId: number) => setStep(i, { target: { kind: 'schedule', scheduleId } })}
                  options={people.schedules.map((x) => ({ value: x.id, label: x.name }))}
                />
              )}
            </Flex>
            <Flex gap={8} wrap style={{ marginTop: 8 }}>
              <InputNumber
                addonBefore={t('oncall.policies.attempts')}
                min={1}
                max={5}
                value={s.attempts}
                onChange={(v) => setStep(i, { attempts: v ?? 1 })}
                style={{ width: 130 }}
              />
              <InputNumber
                addonBefore={t('oncall.policies.retry')}
                addonAfter="s"
                min={0}
                max={3600}
                value={s.retrySeconds}
                onChange={(v) => setStep(i, { retrySeconds: v ?? 0 })}
                style={{ width: 170 }}
              />
              <InputNumber
                addonBefore={t('oncall.policies.pause')}
                addonAfter="s"
                min={0}
                max={86400}
                value={s.pauseSeconds}
                onChange={(v) => setStep(i, { pauseSeconds: v ?? 0 })}
                style={{ width: 170 }}
              />
            </Flex>
          </Card>
        ))}
        <Button icon={<PlusOutlined />} onClick={addStep} data-testid="policy-add-step" style={{ marginBottom: 8 }}>
          {t('oncall.policies.addStep')}
        </Button>
        <Flex gap={8} wrap style={{ marginBottom: 8 }}>
          <InputNumber
            addonBefore={t('oncall.policies.repeat')}
            min={0}
            max={10}
            value={d.repeat}
            onChange={(v) => setD({ ...d, repeat: v ?? 0 })}
            style={{ width: 180 }}
          />
          <InputNumber
            addonBefore={t('oncall.policies.minAnswered')}
            addonAfter="s"
            min={0}
            max={120}
            value={d.minAnsweredSeconds}
            onChange={(v) => setD({ ...d, minAnsweredSeconds: v ?? 0 })}
            style={{ width: 260 }}
          />
        </Flex>
        {issues.map((issue, n) => (
          <Typography.Text key={n} type="danger" style={{ display: 'block' }}>
            {say(t, codedArgs('paging.policy', issue))}
          </Typography.Text>
        ))}
      </div>
    </Modal>
  );
}
