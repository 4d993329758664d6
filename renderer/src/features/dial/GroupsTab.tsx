// Escalation lists: contact groups called in order (call A; if A does not answer, call B, ...).
// The order is changed with the up/down buttons (keyboard reachable); "Call" opens the palette on
// the list.
import { useEffect, useState } from 'react';
import { Button, Card, Empty, Flex, Input, Modal, Select, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, CloseOutlined, DeleteOutlined, EditOutlined, PhoneOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ContactGroupRecord } from '../../../../common/bulk-types';
import { describeError, describeIssue, type IpcError } from '../../app/api';
import { requestPalette } from './dial-store';
import { useRemoveGroup, useSaveGroup, type DialData } from './use-dial-data';
import { useFeedback } from '../../app/feedback';

export function GroupsTab({ data, onChanged }: { data: DialData; onChanged: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = useFeedback();
  const [editing, setEditing] = useState<{ group: ContactGroupRecord | null } | null>(null);
  const removing = useRemoveGroup();
  const name = (id: number) => data.contacts.find((c) => c.id === id);

  const remove = (g: ContactGroupRecord) => {
    modal.confirm({
      title: t('dial.groups.confirmDelete', { name: g.name }),
      content: t('dial.groups.confirmDeleteBody'),
      okText: t('dial.groups.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () => removing.mutateAsync(g).then(onChanged, (e: IpcError) => void message.error(describeError(t, e))),
    });
  };

  return (
    <div data-testid="groups-tab">
      <Flex justify="space-between" align="center" style={{ marginBottom: 12 }} gap={12}>
        <Typography.Text type="secondary">{t('dial.groups.intro')}</Typography.Text>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing({ group: null })}
          disabled={data.contacts.length === 0}
          data-testid="add-group"
        >
          {t('dial.groups.add')}
        </Button>
      </Flex>
      {data.groups.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={data.contacts.length ? t('dial.groups.empty') : t('dial.groups.needContacts')} />
      ) : (
        <div className="dial-groups">
          {data.groups.map((g) => (
            <Card
              key={g.id}
              size="small"
              title={g.name}
              data-testid="group-card"
              data-group-id={g.id}
              extra={
                <Flex gap={4}>
                  <Button
                    size="small"
                    icon={<PhoneOutlined />}
                    onClick={() => requestPalette({ kind: 'group', groupId: g.id })}
                    disabled={g.memberIds.length === 0}
                    aria-label={t('dial.groups.callLabel', { name: g.name })}
                  >
                    {t('dial.groups.call')}
                  </Button>
                  <Button
                    size="small"
                    type="text"
                    icon={<EditOutlined />}
                    onClick={() => setEditing({ group: g })}
                    aria-label={t('dial.groups.editLabel', { name: g.name })}
                  />
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    onClick={() => remove(g)}
                    aria-label={t('dial.groups.deleteLabel', { name: g.name })}
                  />
                </Flex>
              }
            >
              {g.memberIds.length ? (
                <ol className="dial-group-members">
                  {g.memberIds.map((id) => (
                    <li key={id}>
                      <span>{name(id)?.name ?? `#${id}`}</span> <Typography.Text type="secondary">{name(id)?.mobile}</Typography.Text>
                    </li>
                  ))}
                </ol>
              ) : (
                <Typography.Text type="secondary">{t('dial.groups.noMembers')}</Typography.Text>
              )}
            </Card>
          ))}
        </div>
      )}
      <GroupFormModal
        editing={editing}
        data={data}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          onChanged();
        }}
      />
    </div>
  );
}

function GroupFormModal({
  editing,
  data,
  onClose,
  onSaved,
}: {
  editing: { group: ContactGroupRecord | null } | null;
  data: DialData;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [members, setMembers] = useState<number[]>([]);
  const saving = useSaveGroup();
  const [problem, setProblem] = useState<string | null>(null);
  const group = editing?.group ?? null;

  useEffect(() => {
    if (!editing) return;
    setName(group?.name ?? '');
    setMembers(group?.memberIds ?? []);
    setProblem(null);
  }, [editing, group]);

  const move = (index: number, delta: number) => {
    setMembers((m) => {
      const next = [...m];
      const j = index + delta;
      if (j < 0 || j >= next.length) return m;
      [next[index], next[j]] = [next[j]!, next[index]!];
      return next;
    });
  };

  const save = async () => {
    if (!name.trim()) return setProblem(t('dial.groups.nameRequired'));
    try {
      await saving.mutateAsync({ ...(group ? { id: group.id } : {}), name: name.trim(), memberIds: members });
    } catch (e) {
      const error = e as IpcError;
      const issue = error.issues?.[0];
      return setProblem(issue ? describeIssue(t, issue.message) : describeError(t, error));
    }
    return onSaved();
  };

  const contact = (id: number) => data.contacts.find((c) => c.id === id);
  return (
    <Modal
      open={editing !== null}
      title={group ? t('dial.groups.editTitle', { name: group.name }) : t('dial.groups.addTitle')}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving.isPending}
      destroyOnHidden
    >
      <Flex vertical gap={12} data-testid="group-form">
        <label className="dial-field">
          <span>{t('dial.groups.name')}</span>
          <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={60} autoFocus status={problem ? 'error' : undefined} />
        </label>
        {problem ? <Typography.Text type="danger">{problem}</Typography.Text> : null}
        <label className="dial-field">
          <span>{t('dial.groups.addMember')}</span>
          <Select
            value={null}
            placeholder={t('dial.groups.addMemberPlaceholder')}
            showSearch={{ optionFilterProp: 'label' }}
            options={data.contacts.filter((c) => !members.includes(c.id)).map((c) => ({ value: c.id, label: `${c.name} · ${c.mobile}` }))}
            onChange={(id: number | null) => id !== null && setMembers((m) => [...m, id])}
            data-testid="group-add-member"
          />
        </label>
        <div>
          <Typography.Text type="secondary">{t('dial.groups.order')}</Typography.Text>
          {members.length ? (
            <ol className="dial-member-list" data-testid="group-members">
              {members.map((id, i) => (
                <li key={id} data-testid="group-member" data-contact-id={id}>
                  <span className="dial-member-name">
                    {contact(id)?.name ?? `#${id}`} <Typography.Text type="secondary">{contact(id)?.mobile}</Typography.Text>
                  </span>
                  <Button
                    size="small"
                    type="text"
                    icon={<ArrowUpOutlined />}
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                    aria-label={t('dial.groups.moveUp', { name: contact(id)?.name ?? id })}
                  />
                  <Button
                    size="small"
                    type="text"
                    icon={<ArrowDownOutlined />}
                    disabled={i === members.length - 1}
                    onClick={() => move(i, 1)}
                    aria-label={t('dial.groups.moveDown', { name: contact(id)?.name ?? id })}
                  />
                  <Button
                    size="small"
                    type="text"
                    icon={<CloseOutlined />}
                    onClick={() => setMembers((m) => m.filter((x) => x !== id))}
                    aria-label={t('dial.groups.removeMember', { name: contact(id)?.name ?? id })}
                  />
                </li>
              ))}
            </ol>
          ) : (
            <Typography.Paragraph type="secondary">{t('dial.groups.noMembers')}</Typography.Paragraph>
          )}
        </div>
      </Flex>
    </Modal>
  );
}
